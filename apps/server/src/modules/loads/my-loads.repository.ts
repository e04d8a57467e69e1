import { sql, type SQL } from 'drizzle-orm';
import { ACTIVE_LOAD_STATUSES, COUNT_CAP, MY_LOADS_TABS, normalizeMoney, type MyLoadsTab, type MyOfferState } from '@masar/shared';
import type { Db } from '../../db/client.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { queryRows } from '../../lib/sql.ts';
import { bookmarkedAmong, capped, LOAD_COLUMNS, LOAD_JOINS, ON_BOARD, toLoad, uuidArray, type LoadRow } from './loads.repository.ts';

/* My loads (spec §2 "My shipments"): the tabs and their counts. */

/** The sort key of my loads (the expression of the indexes loads_owner_tab / loads_carrier_tab). */
const MY_KEY = sql.raw('coalesce(l.posted_at, l.created_at)');

/**
 * A tab of my loads as a union of branches, each a plain range of one owner index (migration
 * 0070, 0082): (shipper_id | carrier_id, status) walked newest first, my pending offers, my
 * bookmarks, or the shipments offered to me as a vendor. Every branch yields (id, k) with k the
 * sort key. A tab's page reads at most `limit + skip` entries per branch and its count at most
 * COUNT_CAP + 1, whatever the size of the owner or of the table (issue 10: the old
 * `or l.id in (select … from offers)` read all loads).
 */
function tabBranches(me: string, tab: MyLoadsTab): SQL[] {
  const branch = (w: SQL) => sql`(select l.id, ${MY_KEY} as k from loads l where ${w})`;
  const mine = (who: 'shipper_id' | 'carrier_id', status: string, extra?: SQL) =>
    branch(sql`l.${sql.raw(who)} = ${me} and l.status = ${status} and l.deleted_at is null${extra ? sql` and ${extra}` : sql``}`);
  const both = (status: string) => [mine('shipper_id', status), mine('carrier_id', status)];
  const withOffers = (who: 'shipper_id' | 'carrier_id') =>
    branch(
      sql`l.id in (select o.load_id from offers o where o.${sql.raw(who)} = ${me} and o.status = 'pending') and ${ON_BOARD('l.')} and l.deleted_at is null`,
    );
  // a cancelled load carries deleted_at: loads_owner_cancelled / loads_carrier_cancelled (0082)
  const cancelled = (['shipper_id', 'carrier_id'] as const).map((who) => branch(sql`l.${sql.raw(who)} = ${me} and l.status = 'cancelled'`));
  switch (tab) {
    case 'posted':
      return [mine('shipper_id', 'posted', sql`l.expires_at > now()`)];
    case 'unposted':
      return [mine('shipper_id', 'unposted')];
    case 'offers':
      return [withOffers('shipper_id'), withOffers('carrier_id')];
    case 'active':
      return ACTIVE_LOAD_STATUSES.flatMap(both);
    case 'finished':
      return [...both('completed'), ...cancelled, ...both('expired'), pastExpiry(me)];
    case 'unassigned':
    case 'assigned':
    case 'pending_bayan':
    case 'completed':
      return both(tab);
    case 'cancelled':
      return cancelled;
    case 'expired':
      return [mine('shipper_id', 'expired'), pastExpiry(me)];
    case 'bookmarks':
      return [sql`(select bm.load_id as id, bm.created_at as k from load_bookmarks bm where bm.user_id = ${me} order by bm.created_at desc)`];
    case 'customers':
      // driven from my rows of load_vendors (index load_vendors_user): `l.id in (…)` got a generic
      // plan that hashed them against a parallel scan of every load (720 ms at 1M loads)
      return [
        sql`(select l.id, ${MY_KEY} as k from (select distinct lv.load_id from load_vendors lv where lv.user_id = ${me}) v
             join loads l on l.id = v.load_id where ${ON_BOARD('l.')} and l.deleted_at is null)`,
      ];
  }
}

/**
 * Posted loads of mine past their expiry that the expiry job has not flipped yet (the
 * "finished" and "expired" tabs): a range of loads_owner_expiry, ordered by expiry so that the
 * planner cannot walk all of my posted loads instead (a subquery with ORDER BY is not flattened).
 */
const pastExpiry = (me: string) =>
  sql`(select l.id, ${MY_KEY} as k from loads l
       where l.shipper_id = ${me} and l.status = 'posted' and l.deleted_at is null and l.expires_at <= now() order by l.expires_at)`;

/**
 * One tab of my loads (spec §2 "My shipments"), newest first (coalesce(posted_at, created_at)
 * desc, id desc; bookmarks: newest bookmark first), with every tab's count: exact up to
 * COUNT_CAP, then COUNT_CAP and capped. Two statements (page, counts), each reading only the
 * owner's index entries; then one read of my bookmarks among the page. Both are named prepared
 * statements with a generic plan (queryRows 'generic': planning the 26-branch count cost more
 * than running it; every branch is an owner-index range whatever the values). Paging: `skip`
 * (≤ SKIP_MAX: each branch reads skip + limit entries) or `cursor` (after the previous page's
 * last (k, id): each branch starts there and reads at most `limit`).
 */
export async function myLoads(db: Db, me: string, tab: MyLoadsTab, limit: number, skip: number, cursor?: string) {
  const after = cursor ? decodeCursor(cursor, `mine:${tab}`, ['timestamptz']) : null;
  const offset = after ? 0 : skip;
  const walk = limit + offset;
  const branches = (t: MyLoadsTab, each: (from: SQL) => SQL) =>
    sql.join(
      tabBranches(me, t).map((f, i) => sql`(${each(sql`${f} b${sql.raw(String(i))}`)})`),
      sql` union `,
    );
  const start = after ? sql` where k <= ${after.key[0]}::timestamptz and (k, id) < (${after.key[0]}::timestamptz, ${after.id}::uuid)` : sql``;
  const page = branches(tab, (f) => sql`select id, k from ${f}${start} order by k desc, id desc limit ${walk}`);
  const count = (t: MyLoadsTab) => sql`(select count(*)::int from (${branches(t, (f) => sql`select id from ${f} limit ${COUNT_CAP + 1}`)}) m) as ${sql.raw(t)}`;
  const [rows, [c]] = await Promise.all([
    queryRows<LoadRow & { k: string }>(
      db,
      sql`select ${LOAD_COLUMNS}, p.k::text as k
          from (select id, k from (${page}) b order by k desc, id desc limit ${limit} offset ${offset}) p
          join loads l on l.id = p.id ${LOAD_JOINS}
          order by p.k desc, p.id desc`,
      'my_loads',
      'generic',
    ),
    queryRows<Record<MyLoadsTab, number>>(db, sql`select ${sql.join(MY_LOADS_TABS.map(count), sql`, `)}`, 'my_counts', 'generic'),
  ]);
  const marked =
    tab === 'bookmarks'
      ? new Set(rows.map((r) => r.id))
      : await bookmarkedAmong(
          db,
          me,
          rows.map((r) => r.id),
        );
  const offerStates =
    tab === 'offers'
      ? await offerStatesAmong(
          db,
          me,
          rows.map((r) => r.id),
        )
      : {};
  const counts = {} as Record<MyLoadsTab, number>;
  const countsCapped = {} as Record<MyLoadsTab, boolean>;
  for (const t of MY_LOADS_TABS) {
    const x = capped(Number(c[t]));
    counts[t] = x.total;
    countsCapped[t] = x.totalCapped;
  }
  const last = rows.length === limit ? rows[rows.length - 1] : null;
  return {
    items: rows.map((r) => toLoad(r, me, undefined, marked.has(r.id))),
    total: counts[tab],
    totalCapped: countsCapped[tab],
    nextCursor: last ? encodeCursor(`mine:${tab}`, [last.k], last.id) : null,
    counts,
    countsCapped,
    offerStates,
  };
}

/**
 * Where the open offers on a page of the Offers tab stand for me (issue 23): per load, my own
 * open offer when I bid on it, else the open offers on my load (count, lowest price). Reads the
 * partial indexes offers_carrier_pending / offers_shipper_pending for the page's ids only.
 */
async function offerStatesAmong(db: Db, me: string, loadIds: string[]): Promise<Record<string, MyOfferState>> {
  if (loadIds.length === 0) return {};
  const ids = uuidArray(loadIds);
  const rows = await queryRows<{
    load_id: string;
    side: 'carrier' | 'shipper';
    pending: number;
    your_turn: number;
    price: string;
    last_offer_by: 'carrier' | 'shipper';
  }>(
    db,
    sql`select load_id, side, count(*)::int as pending, count(*) filter (where last_offer_by <> side)::int as your_turn,
               min(price)::text as price, (array_agg(last_offer_by order by price, updated_at desc))[1] as last_offer_by
        from (select o.load_id, 'carrier' as side, o.price, o.last_offer_by, o.updated_at from offers o
                where o.carrier_id = ${me} and o.status = 'pending' and o.load_id = any(${ids}::uuid[])
              union all
              select o.load_id, 'shipper', o.price, o.last_offer_by, o.updated_at from offers o
                where o.shipper_id = ${me} and o.status = 'pending' and o.load_id = any(${ids}::uuid[])) x
        group by load_id, side`,
  );
  const out: Record<string, MyOfferState> = {};
  // a broker may be both (bids on one load, receives on another); never both on one load
  for (const r of rows)
    out[r.load_id] = { side: r.side, pending: r.pending, yourTurn: r.your_turn, priceSar: normalizeMoney(r.price), lastOfferBy: r.last_offer_by };
  return out;
}
