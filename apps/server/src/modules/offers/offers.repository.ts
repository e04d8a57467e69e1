import { sql, type SQL } from 'drizzle-orm';
import type { Offer } from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { recountCardOffers } from '../../db/load-cards.ts';
import { offerEvents, offers } from '../../db/schema/index.ts';
import { inList, queryRows } from '../../lib/sql.ts';

export type Party = 'carrier' | 'shipper';

export interface OfferState {
  id: string;
  load_id: string;
  carrier_id: string;
  shipper_id: string;
  /** numeric text, e.g. "1500.00" */
  price: string;
  last_offer_by: Party;
  status: Offer['status'];
}

/** One offer's state, locked FOR UPDATE when asked (inside a transaction). */
export async function offerState(db: DbOrTx, id: string, lock = false): Promise<OfferState | null> {
  const rows = await queryRows<OfferState>(
    db,
    sql`select id, load_id, carrier_id, shipper_id, price::text as price, last_offer_by, status from offers where id = ${id}${lock ? sql` for update` : sql``}`,
  );
  return rows[0] ?? null;
}

/** Insert an offer; its load's board card counts it (issue 45; inside the caller's transaction). */
export async function insertOffer(tx: DbOrTx, o: typeof offers.$inferInsert) {
  await tx.insert(offers).values(o);
  await recountCardOffers(tx, [o.loadId]);
}

export async function insertEvent(tx: DbOrTx, e: typeof offerEvents.$inferInsert) {
  await tx.insert(offerEvents).values(e);
}

export type NewOfferRow = typeof offers.$inferInsert;
export type NewOfferEventRow = typeof offerEvents.$inferInsert;

/** Insert many offers and their history at once, 200 rows per statement (the demo board; inside a transaction). */
export async function insertOffersBulk(tx: DbOrTx, rows: NewOfferRow[], events: NewOfferEventRow[]) {
  for (let i = 0; i < rows.length; i += 200) await tx.insert(offers).values(rows.slice(i, i + 200));
  for (let i = 0; i < events.length; i += 200) await tx.insert(offerEvents).values(events.slice(i, i + 200));
  // their loads' board cards count them (issue 45)
  const loadIds = [...new Set(rows.map((r) => r.loadId))];
  for (let i = 0; i < loadIds.length; i += 1000) await recountCardOffers(tx, loadIds.slice(i, i + 1000));
}

/** Move the times of the offers on loads of `shipperIds` (and their history) forward by `days`, never past now. */
export async function shiftOfferDates(tx: DbOrTx, shipperIds: string[], days: number): Promise<void> {
  const by = sql`make_interval(days => ${days})`;
  const owners = inList(shipperIds);
  await tx.execute(
    sql`update offer_events e set created_at = least(e.created_at + ${by}, now()) from offers o where o.id = e.offer_id and o.shipper_id in ${owners}`,
  );
  await tx.execute(
    sql`update offers set created_at = least(created_at + ${by}, now()), updated_at = least(updated_at + ${by}, now()) where shipper_id in ${owners}`,
  );
}

interface OfferRow {
  id: string;
  load_id: string;
  reference_id: string;
  carrier_id: string;
  carrier_company: string;
  shipper_id: string;
  shipper_company: string;
  price: string;
  original_price: string;
  last_offer_by: Party;
  status: Offer['status'];
  created_at: Date | string;
  updated_at: Date | string;
  from_en: string;
  from_ar: string;
  to_en: string;
  to_ar: string;
  history: { by: Party; action: string; price: string | null; at: string }[];
  total: string | number;
}

const iso = (v: Date | string) => new Date(v).toISOString();

function toOffer(r: OfferRow): Offer {
  return {
    id: r.id,
    loadId: r.load_id,
    loadReferenceId: r.reference_id,
    carrierId: r.carrier_id,
    carrierCompany: r.carrier_company,
    shipperId: r.shipper_id,
    shipperCompany: r.shipper_company,
    priceSar: r.price,
    originalPriceSar: r.original_price,
    lastOfferBy: r.last_offer_by,
    status: r.status,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    history: r.history.map((h) => ({ by: h.by, action: h.action, priceSar: h.price, at: iso(h.at) })),
    lane: { fromEn: r.from_en, fromAr: r.from_ar, toEn: r.to_en, toAr: r.to_ar },
  };
}

/** Offers matching `where` (over `offers o join loads l`), most recently active first, with history and lane. */
export async function listOffers(db: Db | DbOrTx, where: SQL, limit: number, skip: number): Promise<{ items: Offer[]; total: number }> {
  const rows = await queryRows<OfferRow>(
    db,
    sql`select o.id, o.load_id, l.reference_id, o.carrier_id, cu.company_name as carrier_company, o.shipper_id, su.company_name as shipper_company,
          o.price::text as price, o.original_price::text as original_price, o.last_offer_by, o.status, o.created_at, o.updated_at,
          pc.name_en as from_en, pc.name_ar as from_ar, dc.name_en as to_en, dc.name_ar as to_ar,
          (select coalesce(json_agg(json_build_object('by', e.by_party, 'action', e.action, 'price', e.price::text, 'at', e.created_at) order by e.created_at, e.id), '[]'::json)
             from offer_events e where e.offer_id = o.id) as history,
          count(*) over () as total
        from offers o
        join loads l on l.id = o.load_id
        join users cu on cu.id = o.carrier_id
        join users su on su.id = o.shipper_id
        join cities pc on pc.id = l.pickup_city_id
        join cities dc on dc.id = l.drop_city_id
        where ${where}
        order by o.updated_at desc, o.id desc
        limit ${limit} offset ${skip}`,
  );
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && skip > 0) {
    const [c] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from offers o join loads l on l.id = o.load_id where ${where}`);
    total = c.n;
  }
  return { items: rows.map(toOffer), total };
}

export async function getOffer(db: DbOrTx, id: string): Promise<Offer | null> {
  return (await listOffers(db, sql`o.id = ${id}`, 1, 0)).items[0] ?? null;
}

/** Delete every offer of a load and its history (spec §4: editing origin, destination or equipment). */
export async function deleteOffersOfLoad(tx: DbOrTx, loadId: string): Promise<void> {
  await tx.execute(sql`delete from offers where load_id = ${loadId}`);
  await recountCardOffers(tx, [loadId]);
}

/**
 * Offers visible to `me` (issue 6: the where-clause is built here, not in the service):
 * `loadId` → the offers on that load (all for its owner, only mine for a bidder); `box=sent` →
 * offers I made; `received` → offers on my loads; neither → both; `turn=mine` → only the open
 * ones waiting for my answer.
 */
export async function listOffersFor(
  db: DbOrTx,
  q: { me: string; loadId?: string; ownerOfLoad?: boolean; box?: 'sent' | 'received'; turn?: 'mine'; limit: number; skip: number },
): Promise<{ items: Offer[]; total: number }> {
  const parts: SQL[] = [];
  if (q.loadId) {
    parts.push(sql`o.load_id = ${q.loadId}`);
    if (!q.ownerOfLoad) parts.push(sql`o.carrier_id = ${q.me}`);
  }
  if (q.box === 'sent') parts.push(sql`o.carrier_id = ${q.me}`);
  else if (q.box === 'received') parts.push(sql`o.shipper_id = ${q.me}`);
  else if (!q.loadId) parts.push(sql`(o.carrier_id = ${q.me} or o.shipper_id = ${q.me})`);
  // my turn: open, and the other party named the last price
  if (q.turn === 'mine')
    parts.push(
      sql`o.status = 'pending' and ((o.carrier_id = ${q.me} and o.last_offer_by = 'shipper') or (o.shipper_id = ${q.me} and o.last_offer_by = 'carrier'))`,
    );
  return listOffers(db, sql.join(parts, sql` and `), q.limit, q.skip);
}

/** True when `carrierId` has ever made an offer on the load (any status). */
export async function hasOfferOn(db: DbOrTx, loadId: string, carrierId: string): Promise<boolean> {
  // every load details request of a carrier asks: prepared, its generic plan (the index read whatever the ids) planned once per connection
  const rows = await queryRows(db, sql`select 1 from offers where load_id = ${loadId} and carrier_id = ${carrierId} limit 1`, 'has_offer_on', 'generic');
  return rows.length > 0;
}
