import { ComingSoonPage } from '../../../components/ComingSoonPage';

/** PostLoadPage (to be built). */
export default function PostLoadPage() {
  return <ComingSoonPage />;
}
