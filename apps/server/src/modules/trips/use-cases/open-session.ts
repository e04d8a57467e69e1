import { normalizeSaudiPhone, type TripSession } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { TripsDeps } from '../deps.ts';
import { activeDriver, genOf } from '../trips.shared.ts';

export type OpenSessionDeps = Pick<TripsDeps, 'db' | 'links' | 'config'>;

/**
 * Open a trip session from the job link (purpose 'driver-job', subject the driver id) and the
 * driver's phone + licence number, both checked against the drivers row (spec §6).
 * Errors: DRIVER_LINK_INVALID (bad or expired link, driver suspended or deleted, or suspended
 * since the link was made),
 * DRIVER_NOT_IDENTIFIED (the pair does not match). Returns a 'driver-trip' signed token.
 */
export async function openSession(deps: OpenSessionDeps, b: { token: string; phone: string; licenceNumber: string }): Promise<TripSession> {
  const link = await deps.links.check('driver-job', b.token);
  if (!link.ok) throw new AppError('DRIVER_LINK_INVALID');
  const d = await activeDriver(deps, link.link.subject, genOf(link.link.claims));
  if (!d) throw new AppError('DRIVER_LINK_INVALID');
  const phone = normalizeSaudiPhone(b.phone) ?? b.phone.trim();
  if (phone !== d.phone || b.licenceNumber.trim() !== d.licence_number) throw new AppError('DRIVER_NOT_IDENTIFIED');
  const s = await deps.links.sign('driver-trip', d.id, Math.round(deps.config.TRIP_SESSION_HOURS * 3600), {
    owner: d.owner_id,
    gen: String(d.link_generation),
  });
  return { sessionToken: s.token, expiresAt: s.expiresAt, driverName: `${d.first_name} ${d.last_name}` };
}
