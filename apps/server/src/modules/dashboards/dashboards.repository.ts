import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';

/*
 * The dashboards' aggregate tables (migration 0112; docs/dashboards.md). Written only by the
 * `dashboards` outbox handler (and its backfill): `claim` admits an event of a load once (its
 * outbox seq above the load's last counted one), and the counters move in the same savepoint.
 * Reads are primary-key ranges of one account, bounded by the period.
 */

/** One load as the dashboards counted it. */
export interface DashboardLoadRow {
  load_id: string;
  shipper_id: string;
  carrier_id: string | null;
  open: boolean;
  first_posted_on: string | null;
  booked_on: string | null;
  booked_price_sar: string | null;
  origin_city_id: number | null;
  destination_city_id: number | null;
  distance_km: string | null;
  booking_cancelled: boolean;
}

const LOAD_COLUMNS = sql.raw(
  'load_id, shipper_id, carrier_id, open, first_posted_on::text as first_posted_on, booked_on::text as booked_on, booked_price_sar::text as booked_price_sar, origin_city_id, destination_city_id, distance_km::text as distance_km, booking_cancelled',
);

/**
 * Admit the event `seq` of a load: creates the load's row, or advances its last_seq when `seq`
 * is newer. Returns the row as it was (its state before this event), or null when the event was
 * counted already (seq at or below last_seq: a redelivery or a replay).
 */
export async function claim(tx: DbOrTx, loadId: string, shipperId: string, seq: number): Promise<DashboardLoadRow | null> {
  const [r] = await queryRows<DashboardLoadRow>(
    tx,
    sql`insert into dashboard_loads (load_id, shipper_id, last_seq) values (${loadId}, ${shipperId}, ${seq})
        on conflict (load_id) do update set last_seq = excluded.last_seq
        where dashboard_loads.last_seq < excluded.last_seq
        returning ${LOAD_COLUMNS}`,
  );
  return r ?? null;
}

/** The load's row without admitting an event (offer and trip events: their own set-once guards). */
export async function ensureLoad(tx: DbOrTx, loadId: string, shipperId: string): Promise<DashboardLoadRow> {
  await tx.execute(sql`insert into dashboard_loads (load_id, shipper_id) values (${loadId}, ${shipperId}) on conflict (load_id) do nothing`);
  const [r] = await queryRows<DashboardLoadRow>(tx, sql`select ${LOAD_COLUMNS} from dashboard_loads where load_id = ${loadId}`);
  return r;
}

/** Count an offer's fact once (`made`: offer.created; `lost`): true when newly counted. */
export async function setOfferFact(tx: DbOrTx, offerId: string, fact: 'made' | 'lost'): Promise<boolean> {
  const col = sql.raw(fact);
  const rows = await queryRows<{ offer_id: string }>(
    tx,
    sql`insert into dashboard_offers (offer_id, ${col}) values (${offerId}, true)
        on conflict (offer_id) do update set ${col} = true where not dashboard_offers.${col} returning offer_id`,
  );
  return rows.length > 0;
}

/** Put the load on (or take it off) the open gauge: true when that changed it. */
export async function setOpen(tx: DbOrTx, loadId: string, open: boolean): Promise<boolean> {
  const rows = await queryRows<{ load_id: string }>(
    tx,
    sql`update dashboard_loads set open = ${open} where load_id = ${loadId} and open <> ${open} returning load_id`,
  );
  return rows.length > 0;
}

/** Record the load's first post day once: true when newly recorded. */
export async function setFirstPosted(tx: DbOrTx, loadId: string, day: string): Promise<boolean> {
  const rows = await queryRows<{ load_id: string }>(
    tx,
    sql`update dashboard_loads set first_posted_on = ${day}::date where load_id = ${loadId} and first_posted_on is null returning load_id`,
  );
  return rows.length > 0;
}

/** The booking of a load as counted. */
export interface Booking {
  carrierId: string;
  day: string;
  priceSar: string;
  originCityId: number;
  destinationCityId: number;
  distanceKm: number;
}

/** Record the load's booking once: true when newly recorded. */
export async function setBooked(tx: DbOrTx, loadId: string, b: Booking): Promise<boolean> {
  const rows = await queryRows<{ load_id: string }>(
    tx,
    sql`update dashboard_loads set carrier_id = ${b.carrierId}, booked_on = ${b.day}::date, booked_price_sar = ${b.priceSar}::numeric,
          origin_city_id = ${b.originCityId}, destination_city_id = ${b.destinationCityId}, distance_km = ${b.distanceKm}::numeric
        where load_id = ${loadId} and booked_on is null returning load_id`,
  );
  return rows.length > 0;
}

/** Take the load's counted booking back once (a cancellation after booking): the booking, or null. */
export async function cancelBooking(tx: DbOrTx, loadId: string): Promise<Booking | null> {
  const [r] = await queryRows<DashboardLoadRow>(
    tx,
    sql`update dashboard_loads set booking_cancelled = true
        where load_id = ${loadId} and booked_on is not null and not booking_cancelled returning ${LOAD_COLUMNS}`,
  );
  if (!r || !r.carrier_id || !r.booked_on) return null;
  return {
    carrierId: r.carrier_id,
    day: r.booked_on,
    priceSar: r.booked_price_sar ?? '0',
    originCityId: Number(r.origin_city_id),
    destinationCityId: Number(r.destination_city_id),
    distanceKm: Number(r.distance_km ?? 0),
  };
}

/** Mark the arrival at the pickup (`pickup`) or the drop as measured once: true when newly marked. */
export async function setMeasured(tx: DbOrTx, loadId: string, stop: 'pickup' | 'drop'): Promise<boolean> {
  const col = sql.raw(stop === 'pickup' ? 'pickup_measured' : 'drop_measured');
  const rows = await queryRows<{ load_id: string }>(
    tx,
    sql`update dashboard_loads set ${col} = true where load_id = ${loadId} and not ${col} returning load_id`,
  );
  return rows.length > 0;
}

/** The counters of dashboard_daily. */
export type DailyCounter =
  | 'loads_posted'
  | 'loads_assigned'
  | 'loads_expired'
  | 'open_delta'
  | 'offers_received'
  | 'spend_sar'
  | 'pickups_measured'
  | 'pickups_on_time'
  | 'deliveries_measured'
  | 'deliveries_on_time'
  | 'offers_made'
  | 'won'
  | 'lost'
  | 'revenue_sar'
  | 'revenue_km';

const DAILY_COUNTERS: readonly DailyCounter[] = [
  'loads_posted',
  'loads_assigned',
  'loads_expired',
  'open_delta',
  'offers_received',
  'spend_sar',
  'pickups_measured',
  'pickups_on_time',
  'deliveries_measured',
  'deliveries_on_time',
  'offers_made',
  'won',
  'lost',
  'revenue_sar',
  'revenue_km',
];

/** Add to an account's counters of a Riyadh day (numbers; SAR and km may be decimal strings). */
export async function bumpDaily(tx: DbOrTx, accountId: string, day: string, deltas: Partial<Record<DailyCounter, number | string>>): Promise<void> {
  const cols = DAILY_COUNTERS.filter((c) => deltas[c] !== undefined && Number(deltas[c]) !== 0);
  if (!cols.length) return;
  const names = sql.raw(cols.join(', '));
  const values = sql.join(
    cols.map((c) => sql`${String(deltas[c])}::numeric`),
    sql`, `,
  );
  const sets = sql.raw(cols.map((c) => `${c} = dashboard_daily.${c} + excluded.${c}`).join(', '));
  await tx.execute(
    sql`insert into dashboard_daily (account_id, day, ${names}) values (${accountId}, ${day}::date, ${values})
        on conflict (account_id, day) do update set ${sets}`,
  );
}

/** Move an account's open gauge. */
export async function bumpOpen(tx: DbOrTx, accountId: string, delta: number): Promise<void> {
  await tx.execute(
    sql`insert into dashboard_open (account_id, loads_open) values (${accountId}, ${delta})
        on conflict (account_id) do update set loads_open = dashboard_open.loads_open + excluded.loads_open`,
  );
}

/** The lane tables and their period key: a Riyadh day, month (the 1st) or year (1 January). */
export type LaneTable = 'days' | 'months' | 'years';
const LANE_TABLES: Record<LaneTable, { table: string; key: string; of: (day: string) => string }> = {
  days: { table: 'dashboard_lane_days', key: 'day', of: (d) => d },
  months: { table: 'dashboard_lane_months', key: 'month', of: (d) => `${d.slice(0, 7)}-01` },
  years: { table: 'dashboard_lane_years', key: 'year', of: (d) => `${d.slice(0, 4)}-01-01` },
};

/** Add a booking (sign 1) or take it back (−1) on a lane, in the day, month and year tables. */
export async function bumpLane(tx: DbOrTx, accountId: string, side: 'shipper' | 'carrier', b: Booking, sign: 1 | -1): Promise<void> {
  const value = sign === 1 ? b.priceSar : `-${b.priceSar}`;
  const km = sign * b.distanceKm;
  for (const { table, key, of } of Object.values(LANE_TABLES)) {
    const t = sql.raw(table);
    const k = sql.raw(key);
    await tx.execute(
      sql`insert into ${t} (account_id, side, ${k}, origin_city_id, destination_city_id, loads, value_sar, km)
          values (${accountId}, ${side}, ${of(b.day)}::date, ${b.originCityId}, ${b.destinationCityId}, ${sign}, ${value}::numeric, ${km}::numeric)
          on conflict (account_id, side, ${k}, origin_city_id, destination_city_id) do update set
            loads = ${t}.loads + excluded.loads, value_sar = ${t}.value_sar + excluded.value_sar, km = ${t}.km + excluded.km`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Reads

/** The sums of an account's daily counters over a range of Riyadh days (numbers). */
export type DailySums = Record<DailyCounter, number>;

const zeroSums = (): DailySums => Object.fromEntries(DAILY_COUNTERS.map((c) => [c, 0])) as DailySums;

/** The sums of the current range [from, to] and the previous one [pFrom, pTo], in one read of the account's day rows. */
export async function dailySums(
  db: DbOrTx,
  accountId: string,
  r: { from: string; to: string; previousFrom: string; previousTo: string },
): Promise<{ current: DailySums; previous: DailySums }> {
  const sums = sql.raw(DAILY_COUNTERS.map((c) => `coalesce(sum(${c}), 0)::float8 as ${c}`).join(', '));
  const rows = await queryRows<DailySums & { cur: boolean }>(
    db,
    sql`select (day >= ${r.from}::date) as cur, ${sums} from dashboard_daily
        where account_id = ${accountId} and day between ${r.previousFrom}::date and ${r.to}::date
          and (day <= ${r.previousTo}::date or day >= ${r.from}::date)
        group by 1`,
  );
  const out = { current: zeroSums(), previous: zeroSums() };
  for (const row of rows) {
    const target = row.cur ? out.current : out.previous;
    for (const c of DAILY_COUNTERS) target[c] = Number(row[c]);
  }
  return out;
}

/** The account's open gauge now (0 when it never had an open load). */
export async function openNow(db: DbOrTx, accountId: string): Promise<number> {
  const [r] = await queryRows<{ loads_open: number }>(db, sql`select loads_open from dashboard_open where account_id = ${accountId}`);
  return r ? Number(r.loads_open) : 0;
}

/** A lane's sums in a range. */
export interface LaneSums {
  origin_city_id: number;
  destination_city_id: number;
  loads: number;
  value_sar: number;
  km: number;
}

/**
 * An account's lanes on one side over a range of one lane table (keys: days, months' 1sts or
 * years' 1 January). Lanes with bookings left, ordered by loads or value, the top `limit`.
 */
export async function lanes(
  db: DbOrTx,
  accountId: string,
  side: 'shipper' | 'carrier',
  range: { table: LaneTable; from: string; to: string },
  orderBy: 'loads' | 'value',
  limit: number,
): Promise<LaneSums[]> {
  const t = sql.raw(LANE_TABLES[range.table].table);
  const k = sql.raw(LANE_TABLES[range.table].key);
  const order = sql.raw(orderBy === 'loads' ? 'loads desc, value_sar desc' : 'value_sar desc, loads desc');
  // one key (a month's or a year's rows): one row per lane already, nothing to sum
  const rows =
    range.from === range.to
      ? await queryRows<LaneSums>(
          db,
          sql`select origin_city_id, destination_city_id, loads, value_sar::float8 as value_sar, km::float8 as km
              from ${t} where account_id = ${accountId} and side = ${side} and ${k} = ${range.from}::date and loads > 0
              order by ${order}, origin_city_id, destination_city_id limit ${limit}`,
        )
      : await queryRows<LaneSums>(
          db,
          sql`select origin_city_id, destination_city_id, sum(loads)::int as loads, sum(value_sar)::float8 as value_sar, sum(km)::float8 as km
              from ${t} where account_id = ${accountId} and side = ${side} and ${k} between ${range.from}::date and ${range.to}::date
              group by origin_city_id, destination_city_id having sum(loads) > 0
              order by ${order}, origin_city_id, destination_city_id limit ${limit}`,
        );
  return rows.map((r) => ({ ...r, loads: Number(r.loads), value_sar: Number(r.value_sar), km: Number(r.km) }));
}

/** Revenue and bookings won as a carrier per day, or per month (`month`), over a range of days. */
export async function revenueSeries(
  db: DbOrTx,
  accountId: string,
  from: string,
  to: string,
  per: 'day' | 'month',
): Promise<{ bucket: string; revenue_sar: number; loads: number }[]> {
  const bucket = per === 'day' ? sql`day` : sql`date_trunc('month', day)::date`;
  const rows = await queryRows<{ bucket: string; revenue_sar: number; loads: number }>(
    db,
    sql`select ${bucket}::text as bucket, sum(revenue_sar)::float8 as revenue_sar, sum(won)::int as loads
        from dashboard_daily where account_id = ${accountId} and day between ${from}::date and ${to}::date
        group by 1 order by 1`,
  );
  return rows.map((r) => ({ bucket: String(r.bucket).slice(0, 10), revenue_sar: Number(r.revenue_sar), loads: Number(r.loads) }));
}

/** The carrier's bookings won, revenue and km per month (the 1st) over a range of days (its daily rows: at most a year's). */
export async function carrierMonths(
  db: DbOrTx,
  accountId: string,
  from: string,
  to: string,
): Promise<{ month: string; loads: number; value_sar: number; km: number }[]> {
  const rows = await queryRows<{ month: string; loads: number; value_sar: number; km: number }>(
    db,
    sql`select date_trunc('month', day)::date::text as month, sum(won)::int as loads, sum(revenue_sar)::float8 as value_sar, sum(revenue_km)::float8 as km
        from dashboard_daily where account_id = ${accountId} and day between ${from}::date and ${to}::date
        group by 1 order by 1`,
  );
  return rows.map((r) => ({ month: String(r.month).slice(0, 10), loads: Number(r.loads), value_sar: Number(r.value_sar), km: Number(r.km) }));
}
