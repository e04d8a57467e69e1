import type { TenderPage, TenderTab } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { TendersDeps } from '../deps.ts';
import { hydrate } from '../tenders.shared.ts';
import * as repo from '../tenders.repository.ts';

export type ListTendersDeps = Pick<TendersDeps, 'db'>;

/** GET /tenders?tab=sent|received: keyset pages, newest first; no total. */
export async function listTenders({ db }: ListTendersDeps, user: CurrentUser, q: { tab: TenderTab; limit: number; cursor?: string }): Promise<TenderPage> {
  const page = q.tab === 'sent' ? await repo.sentIds(db, user.id, q.limit, q.cursor) : await repo.receivedIds(db, user.id, q.limit, q.cursor);
  return { items: await hydrate(db, page.ids, user.id), nextCursor: page.nextCursor };
}
