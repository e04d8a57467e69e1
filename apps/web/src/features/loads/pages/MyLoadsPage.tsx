import { ComingSoonPage } from '../../../components/ComingSoonPage';

/** MyLoadsPage (to be built). */
export default function MyLoadsPage() {
  return <ComingSoonPage />;
}
