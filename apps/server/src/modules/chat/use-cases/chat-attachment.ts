import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../chat.repository.ts';
import { mine } from '../chat.shared.ts';
import type { ChatDeps } from '../deps.ts';

export type ChatAttachmentDeps = Pick<ChatDeps, 'db' | 'files'>;

/**
 * GET /chat/conversations/:id/attachments/:fileId: an attachment's bytes for the two sides of
 * the conversation whose message carries it; NOT_FOUND for anyone else, whatever the id.
 */
export async function chatAttachment({ db, files }: ChatAttachmentDeps, user: CurrentUser, id: string, fileId: string) {
  await mine(db, user, id);
  if (!(await repo.hasAttachment(db, id, fileId))) throw new AppError('NOT_FOUND');
  return files.openShared(fileId);
}
