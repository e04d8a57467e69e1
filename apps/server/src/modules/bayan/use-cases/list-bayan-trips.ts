import type { BayanListQuery, BayanTripView } from '@masar/shared';
import { decodeCursor, encodeCursor } from '../../../lib/cursor.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../bayan.repository.ts';
import { toView } from '../bayan.shared.ts';
import type { BayanDeps } from '../deps.ts';

export type ListBayanTripsDeps = Pick<BayanDeps, 'db'>;

/** GET /bayan/list: keyset page of the caller's trips (carrier or shipper). */
export async function listBayanTrips(
  deps: ListBayanTripsDeps,
  user: CurrentUser,
  q: BayanListQuery,
): Promise<{ items: BayanTripView[]; nextCursor: string | null }> {
  const rows = await repo.listTrips(
    deps.db,
    user.id,
    {
      status: q.status,
      from: q.from ? new Date(q.from) : undefined,
      to: q.to ? new Date(q.to) : undefined,
      reference: q.reference,
      after: q.cursor ? (({ key, id }) => ({ key: key[0], id }))(decodeCursor(q.cursor, 'bayan', ['timestamptz'])) : undefined,
    },
    q.limit + 1,
  );
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const last = page[page.length - 1];
  return { items: page.map(toView), nextCursor: more && last ? encodeCursor('bayan', [last.createdKey], last.id) : null };
}
