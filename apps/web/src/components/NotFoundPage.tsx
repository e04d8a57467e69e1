import { ComingSoonPage } from './ComingSoonPage';

/** 404 with truck artwork (to be built by the app-shell work). */
export default function NotFoundPage() {
  return <ComingSoonPage titleKey="notFound.title" />;
}
