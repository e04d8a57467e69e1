import { AppError } from '../../../lib/errors.ts';
import type { TripsDeps } from '../deps.ts';
import { activeDriver, genOf } from '../trips.shared.ts';

export type DriverOfSessionDeps = Pick<TripsDeps, 'db' | 'links'>;

/**
 * The driver id of a trip session token (X-Trip-Token); TRIP_SESSION_INVALID when expired,
 * forged, the driver is no longer active, or the driver was suspended or deleted since the
 * token was made (also when reactivated since: the token's generation is gone for good).
 */
export async function driverOfSession(deps: DriverOfSessionDeps, token: string | undefined): Promise<string> {
  if (!token) throw new AppError('TRIP_SESSION_INVALID');
  const c = await deps.links.check('driver-trip', token);
  if (!c.ok || !(await activeDriver(deps, c.link.subject, genOf(c.link.claims)))) throw new AppError('TRIP_SESSION_INVALID');
  return c.link.subject;
}
