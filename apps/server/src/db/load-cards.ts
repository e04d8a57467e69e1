import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './client.ts';

/*
 * The board card of a load (issue 45; migration 0134_load_cards): what a board row shows that a
 * load's own row does not hold — its stops with the city names in English and Arabic, its cargo
 * lines (both as the JSON text the API's Load is built from) and its count of pending offers —
 * in a 1:1 table `load_cards` (load_id primary key). A board page, my loads and the details read
 * the card by primary key instead of three correlated subqueries per load (stops joined to
 * cities, cargo lines, the offers count: about 25 buffers per load at 1M loads).
 *
 * Written IN THE SAME TRANSACTION by every write that changes it (the card tests walk each one):
 * - stops and cargo: create, duplicate, edit (replaceStops / replaceCargo), the date moves of
 *   extend dates and repost (setStopDate), the demo board (insertLoadsBulk, shiftLoadDates),
 *   the bench seeds (set-based FILL_ALL_LOAD_CARDS; the migration backfilled the loads before it): writeLoadCards;
 * - the pending-offer count: every offer insert, status change (transitionOfferRow: make,
 *   withdraw, accept, decline, counter, close, expire) and delete: recountCardOffers.
 * Columns are `json` (not jsonb): json keeps the text json_agg built, key order included, so
 * the API's output stays byte-identical to the subqueries it replaces.
 */

/** SQL (alias `l` for loads): a load's stops with their cities' names, as the Load's `stops` JSON. */
export const CARD_STOPS_SQL = `(select coalesce(json_agg(json_build_object('id', s.id, 'index', s.idx, 'stopType', s.stop_type, 'cityId', s.city_id,
      'cityNameEn', c.name_en, 'cityNameAr', c.name_ar, 'districtId', s.district_id, 'lat', s.lat, 'lng', s.lng,
      'date', s.date, 'address', s.address, 'addressDetails', s.address_details) order by s.idx), '[]'::json)
     from load_stops s join cities c on c.id = s.city_id where s.load_id = l.id)`;

/** SQL (alias `l`): a load's cargo lines as the Load's `cargo` JSON. */
export const CARD_CARGO_SQL = `(select coalesce(json_agg(json_build_object('id', g.id, 'goodsType', g.goods_type, 'lengthCm', g.length_cm, 'widthCm', g.width_cm,
      'heightCm', g.height_cm, 'quantity', g.quantity, 'weightPerItemKg', g.weight_per_item_kg, 'stackable', g.stackable,
      'adr', g.adr, 'conditions', g.conditions) order by g.idx), '[]'::json)
     from cargo_lines g where g.load_id = l.id)`;

/** SQL (alias `l`): a load's pending offers (the board's offer count). */
export const CARD_OFFERS_SQL = `(select count(*)::int from offers o where o.load_id = l.id and o.status = 'pending')`;

const FILL_HEAD = `insert into load_cards (load_id, stops, cargo, offers_count)
  select l.id, ${CARD_STOPS_SQL}, ${CARD_CARGO_SQL}, ${CARD_OFFERS_SQL} from loads l where `;
const FILL_TAIL = `
  on conflict (load_id) do update set stops = excluded.stops, cargo = excluded.cargo, offers_count = excluded.offers_count`;

/**
 * SQL text: (re)write the cards of every load from their stops, cargo lines and offers,
 * set-based (one statement): the bench seeds run it after their own inserts of loads.
 */
export const FILL_ALL_LOAD_CARDS = `${FILL_HEAD}true${FILL_TAIL}`;

const uuids = (ids: readonly string[]) => `{${ids.join(',')}}`;

/**
 * (Re)write the whole card of each of `loadIds` (uuids) from its current stops, cargo lines and
 * pending offers: after a load is inserted, or its stops (dates included) or cargo change. Call
 * inside the transaction of that write. One statement, whatever the number of loads.
 */
export async function writeLoadCards(tx: DbOrTx, loadIds: readonly string[]): Promise<void> {
  if (loadIds.length === 0) return;
  await writeLoadCardsWhere(tx, sql`l.id = any(${uuids(loadIds)}::uuid[])`);
}

/** writeLoadCards for the loads matching `where` (a condition on `loads l`), e.g. all loads of some shippers. */
export async function writeLoadCardsWhere(tx: DbOrTx, where: SQL): Promise<void> {
  await tx.execute(sql`${sql.raw(FILL_HEAD)}${where}${sql.raw(FILL_TAIL)}`);
}

/**
 * Recount the pending offers on the cards of `loadIds` (uuids): after an offer is inserted,
 * changes status or is deleted, in the same transaction. An exact count, not an increment: a
 * load holds few offers (offers_one_open: one open per carrier), read through offers' load index.
 */
export async function recountCardOffers(tx: DbOrTx, loadIds: readonly string[]): Promise<void> {
  if (loadIds.length === 0) return;
  const ids: SQL = sql`${uuids([...new Set(loadIds)])}::uuid[]`;
  // Lock the cards first, in a statement of its own: two bids on one load hold the load only FOR
  // SHARE, so without it both recounts would run on snapshots taken before the other's insert
  // committed, and the later commit would lose the earlier offer from the count. Locked, the
  // second waits for the first to commit, and its count (a new statement, so a new snapshot under
  // READ COMMITTED) sees both. Cards are locked in load id order, after the load row.
  await tx.execute(sql`select 1 from load_cards where load_id = any(${ids}) order by load_id for update`);
  await tx.execute(
    sql`update load_cards lc set offers_count = (select count(*)::int from offers o where o.load_id = lc.load_id and o.status = 'pending')
        where lc.load_id = any(${ids})`,
  );
}
