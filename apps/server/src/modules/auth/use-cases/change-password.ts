import { AppError } from '../../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../../lib/password.ts';
import * as repo from '../auth.repository.ts';
import type { AuthUseCaseDeps } from '../deps.ts';

export type ChangePasswordDeps = Pick<AuthUseCaseDeps, 'db' | 'now'>;

/** POST /account/changePassword: WRONG_PASSWORD; signs out every other session. */
export async function changePassword(
  { db, now }: ChangePasswordDeps,
  userId: string,
  sessionId: string,
  oldPassword: string,
  newPassword: string,
): Promise<void> {
  const u = await repo.findUserById(db, userId);
  if (!u) throw new AppError('UNAUTHORIZED');
  if (!(await verifyPassword(u.passwordHash, oldPassword))) throw new AppError('WRONG_PASSWORD');
  const passwordHash = await hashPassword(newPassword);
  const s = await repo.findSession(db, sessionId);
  await db.transaction(async (tx) => {
    await repo.updateUser(tx, userId, { passwordHash, updatedAt: now() });
    await repo.revokeUserSessions(tx, userId, now(), s?.familyId);
  });
}
