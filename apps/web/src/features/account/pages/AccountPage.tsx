import { ComingSoonPage } from '../../../components/ComingSoonPage';

/** AccountPage (to be built). */
export default function AccountPage() {
  return <ComingSoonPage />;
}
