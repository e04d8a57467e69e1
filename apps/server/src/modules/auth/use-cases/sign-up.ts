import { PROFILE_STATUS, type Profile, type SignUpBody, type Tokens } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import { hashPassword } from '../../../lib/password.ts';
import * as repo from '../auth.repository.ts';
import { checkOtp, closeGuestSession, consumeOtpOrFail, issueSession, loadProfile, rethrowUnique, type RequestMeta } from '../auth.shared.ts';
import type { AuthUseCaseDeps } from '../deps.ts';

export type SignUpDeps = Pick<AuthUseCaseDeps, 'db' | 'config' | 'now'>;

/**
 * POST /account/signUp: verify the signup OTP, create the account (pending, not first
 * approved) and sign in — one transaction.
 */
export async function signUp(deps: SignUpDeps, body: SignUpBody, meta: RequestMeta): Promise<{ token: Tokens; profile: Profile }> {
  const { db, now } = deps;
  if (await repo.findUserByPhone(db, body.phone)) throw new AppError('PHONE_EXISTS');
  if (await repo.emailTaken(db, body.email)) throw new AppError('EMAIL_EXISTS');
  await checkOtp(deps, body.otpId, body.phone, 'signup', body.otp);
  const passwordHash = await hashPassword(body.password);
  const id = newId();
  const t = now();
  let token: Tokens;
  try {
    token = await db.transaction(async (tx) => {
      await consumeOtpOrFail(deps, tx, body.otpId);
      await repo.insertUser(tx, {
        id,
        accountType: body.accountType,
        firstName: body.firstName,
        lastName: body.lastName,
        companyName: body.companyName,
        email: body.email,
        phone: body.phone,
        passwordHash,
        status: PROFILE_STATUS.pending,
        isFirstTimeApproved: false,
        isFirstTimeLoginAfterApproved: false,
        language: meta.lang,
        createdAt: t,
        updatedAt: t,
      });
      return issueSession(deps, tx, { userId: id, accountType: body.accountType, device: meta.device });
    });
  } catch (e) {
    rethrowUnique(e);
  }
  await closeGuestSession(deps, meta);
  return { token, profile: await loadProfile(deps, id, meta.lang) };
}
