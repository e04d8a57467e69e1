import type { Tender } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { TendersDeps } from '../deps.ts';
import { hydrate } from '../tenders.shared.ts';
import * as repo from '../tenders.repository.ts';

export type GetTenderDeps = Pick<TendersDeps, 'db'>;

/** The tender as `user` may see it: its owner, or an invited carrier whose turn has come; NOT_FOUND otherwise. */
export async function getTender({ db }: GetTenderDeps, user: CurrentUser, id: string, via: DbOrTx = db): Promise<Tender> {
  const t = await repo.tenderState(via, id);
  if (!t) throw new AppError('NOT_FOUND');
  if (t.owner_id !== user.id) {
    const inv = await repo.inviteOf(via, id, user.id);
    if (!inv || inv.status === 'waiting') throw new AppError('NOT_FOUND');
  }
  const [tender] = await hydrate(via, [id], user.id);
  return tender;
}
