import { ComingSoonPage } from '../../../components/ComingSoonPage';

/** LoadSearchPage (to be built). */
export default function LoadSearchPage() {
  return <ComingSoonPage />;
}
