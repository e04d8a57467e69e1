import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import { mustDriver } from '../fleet.shared.ts';

export type SignDriverLinkDeps = Pick<FleetDeps, 'db' | 'links'>;

/** How long a driver's job link opens (days). */
export const DRIVER_LINK_DAYS = 7;

/**
 * A signed job link for the driver (spec §2 "share driver link"): a signed link
 * (lib/signed-links.ts) with purpose 'driver-job', subject the driver id and the owner as a
 * claim, valid 7 days; it carries the driver's link generation, so suspending the driver
 * kills it for good (a reactivated driver needs a new link). The trip flow that consumes it is a later issue; the web's /driver
 * page reads `token`.
 */
export async function signDriverLink(deps: SignDriverLinkDeps, user: CurrentUser, id: string) {
  const d = await mustDriver(deps.db, user, id);
  if (d.state !== 'active') throw new AppError('FLEET_ITEM_SUSPENDED');
  const { token, expiresAt } = await deps.links.sign('driver-job', d.id, DRIVER_LINK_DAYS * 86_400, { owner: user.id, gen: String(d.linkGeneration) });
  return { url: `/driver?token=${token}`, token, expiresAt };
}
