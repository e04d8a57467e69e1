import type { Language } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import { mustDriver } from '../fleet.shared.ts';
import { DRIVER_LINK_DAYS, signDriverLink } from './sign-driver-link.ts';

export type SendDriverLinkSmsDeps = Pick<FleetDeps, 'db' | 'links' | 'sms' | 'publicUrl' | 'log'>;

/** The SMS that carries a driver's job link (issue 23: "Share driver link" also sends by SMS), in the sender's language. */
export function driverLinkSmsText(link: string, lang: Language): string {
  return lang === 'ar' ? `رابط رحلاتك على مسار (صالح ${DRIVER_LINK_DAYS} أيام): ${link}` : `Your Masar trip link (valid ${DRIVER_LINK_DAYS} days): ${link}`;
}

/**
 * Send a fresh job link to the driver's own phone by SMS (issue 23). The link is the one
 * `driverLink` signs; the SMS goes through the SMS gateway in `lang`. Returns the phone it went
 * to and the link's expiry. Errors: NOT_FOUND, FLEET_ITEM_SUSPENDED, SMS_SEND_FAILED (502:
 * the gateway refused; nothing is stored, so the user simply tries again).
 */
export async function sendDriverLinkSms(deps: SendDriverLinkSmsDeps, user: CurrentUser, id: string, lang: Language) {
  if (!deps.sms) throw new AppError('SMS_SEND_FAILED');
  const d = await mustDriver(deps.db, user, id);
  const link = await signDriverLink(deps, user, id);
  try {
    await deps.sms.send(d.phone, driverLinkSmsText(`${deps.publicUrl ?? ''}${link.url}`, lang));
  } catch (err) {
    deps.log?.error({ err, driverId: id }, 'driver link SMS failed');
    throw new AppError('SMS_SEND_FAILED');
  }
  return { sentTo: d.phone, expiresAt: link.expiresAt };
}
