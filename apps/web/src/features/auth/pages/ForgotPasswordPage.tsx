import { ComingSoonPage } from '../../../components/ComingSoonPage';

/** ForgotPasswordPage (to be built). */
export default function ForgotPasswordPage() {
  return <ComingSoonPage />;
}
