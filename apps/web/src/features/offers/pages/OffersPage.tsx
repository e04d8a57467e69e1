import { ComingSoonPage } from '../../../components/ComingSoonPage';

/** OffersPage (to be built). */
export default function OffersPage() {
  return <ComingSoonPage />;
}
