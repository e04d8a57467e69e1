import { ComingSoonPage } from '../../../components/ComingSoonPage';

/** ResetPasswordPage (to be built). */
export default function ResetPasswordPage() {
  return <ComingSoonPage />;
}
