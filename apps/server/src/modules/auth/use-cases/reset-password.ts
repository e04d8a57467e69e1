import { AppError } from '../../../lib/errors.ts';
import { hashPassword } from '../../../lib/password.ts';
import * as repo from '../auth.repository.ts';
import { checkOtp, consumeOtpOrFail } from '../auth.shared.ts';
import type { AuthUseCaseDeps } from '../deps.ts';

export type ResetPasswordDeps = Pick<AuthUseCaseDeps, 'db' | 'config' | 'now'>;

/** POST /account/resetPassword: with a reset OTP; sets the password and signs out everywhere. */
export async function resetPassword(deps: ResetPasswordDeps, phone: string, otpId: string, otp: string, newPassword: string): Promise<void> {
  const { db, now } = deps;
  await checkOtp(deps, otpId, phone, 'reset', otp);
  const u = await repo.findUserByPhone(db, phone);
  if (!u) throw new AppError('NOT_REGISTERED');
  const passwordHash = await hashPassword(newPassword);
  await db.transaction(async (tx) => {
    await consumeOtpOrFail(deps, tx, otpId);
    await repo.updateUser(tx, u.id, { passwordHash, updatedAt: now(), failedLogins: 0, failedLoginWindowAt: null });
    await repo.revokeUserSessions(tx, u.id, now());
  });
}
