import { ComingSoonPage } from '../../../components/ComingSoonPage';

/** HomePage (to be built). */
export default function HomePage() {
  return <ComingSoonPage />;
}
