import type { Language, Profile, UpdateProfileBody } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import * as repo from '../auth.repository.ts';
import { loadProfile, rethrowUnique } from '../auth.shared.ts';
import type { AuthUseCaseDeps } from '../deps.ts';

export type UpdateProfileDeps = Pick<AuthUseCaseDeps, 'db' | 'now'>;

/** PATCH /account: names, company, e-mail (EMAIL_EXISTS when another account has it). */
export async function updateProfile({ db, now }: UpdateProfileDeps, userId: string, patch: UpdateProfileBody, lang: Language): Promise<Profile> {
  if (patch.email && (await repo.emailTaken(db, patch.email, userId))) throw new AppError('EMAIL_EXISTS');
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  try {
    await repo.updateUser(db, userId, { ...set, updatedAt: now() });
  } catch (e) {
    rethrowUnique(e);
  }
  return loadProfile({ db }, userId, lang);
}
