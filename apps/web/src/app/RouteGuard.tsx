import type { ReactNode } from 'react';
import { matchPath, Navigate, useLocation } from 'react-router';
import { useSession } from '../lib/session';
import { guard } from './guard';
import { routes } from './routes';

/** Runs the spec §2 guard on every route change (see guard.ts). */
export function RouteGuard({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  const session = useSession();
  const access = routes.find((r) => matchPath({ path: r.path, end: true }, pathname))?.access;
  const redirect = guard(pathname, search, session, access);
  if (redirect) return <Navigate to={redirect.to} replace state={redirect.alert ? { alert: redirect.alert } : null} />;
  return <>{children}</>;
}
