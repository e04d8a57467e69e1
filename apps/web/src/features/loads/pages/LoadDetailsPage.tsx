import { ComingSoonPage } from '../../../components/ComingSoonPage';

/** LoadDetailsPage (to be built). */
export default function LoadDetailsPage() {
  return <ComingSoonPage />;
}
