import { ComingSoonPage } from '../../../components/ComingSoonPage';

/** SignupPage (to be built). */
export default function SignupPage() {
  return <ComingSoonPage />;
}
