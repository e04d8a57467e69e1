import { ComingSoonPage } from '../../../components/ComingSoonPage';

/** LoginPage (to be built). */
export default function LoginPage() {
  return <ComingSoonPage />;
}
