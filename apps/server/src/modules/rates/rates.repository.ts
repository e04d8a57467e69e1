import { sql, type SQL } from 'drizzle-orm';
import type { RateKind, RateLevel } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';

/*
 * The lane rate index's tables (migration 0111; docs/rates.md): rate_records (one per booked
 * load, inserted once) and lane_rate_daily (daily aggregates at five geography levels × the
 * equipment code and '*'). The aggregates move only when a record is newly inserted or newly
 * cancelled, in the same transaction: a redelivered or replayed event writes nothing.
 */

/** A rate record as written (prices in SAR, distance in km). */
export interface RateRecordRow {
  loadId: string;
  kind: RateKind;
  source: 'offer' | 'book_now' | 'tender' | 'vendor' | 'own_vehicle';
  companyId: string;
  carrierId: string | null;
  bookedAt: Date;
  /** 'YYYY-MM-DD', Riyadh calendar day of bookedAt. */
  bookedOn: string;
  originCityId: number;
  originRegionId: number;
  destinationCityId: number;
  destinationRegionId: number;
  equipment: string;
  loadType: 'ftl' | 'ltl';
  distanceKm: number;
  weightKg: number | null;
  priceSar: number;
  perKmSar: number | null;
  outlier: boolean;
}

/** One day's aggregate row to add (sign +1) or subtract (sign −1) — see aggregateRows in rates.service.ts. */
export interface DailyDelta {
  level: RateLevel;
  originKey: number;
  destinationKey: number;
  equipment: string;
  kind: RateKind;
  day: string;
  records: number;
  sumSar: number;
  sumSqSar: number;
  sumKm: number;
  sumPerKm: number;
  sumSqPerKm: number;
  outliers: number;
  histSar: Record<string, number>;
  histKm: Record<string, number>;
  companies: Record<string, number>;
}

const recordValues = (r: RateRecordRow): SQL =>
  sql`(${r.loadId}, ${r.kind}, ${r.source}, ${r.companyId}, ${r.carrierId}, ${r.bookedAt.toISOString()}, ${r.bookedOn}, ${r.originCityId},
       ${r.originRegionId}, ${r.destinationCityId}, ${r.destinationRegionId}, ${r.equipment}, ${r.loadType}, ${r.distanceKm}, ${r.weightKg},
       ${r.priceSar.toFixed(2)}, ${r.perKmSar === null ? null : r.perKmSar.toFixed(4)}, ${r.outlier})`;

const RECORD_COLUMNS = sql.raw(`load_id, kind, source, company_id, carrier_id, booked_at, booked_on, origin_city_id, origin_region_id,
  destination_city_id, destination_region_id, equipment, load_type, distance_km, weight_kg, price_sar, per_km_sar, outlier`);

/** Insert a record once: true when newly inserted (false: the load already has one). */
export async function insertRecord(tx: DbOrTx, r: RateRecordRow): Promise<boolean> {
  const rows = await queryRows<{ load_id: string }>(
    tx,
    sql`insert into rate_records (${RECORD_COLUMNS}) values ${recordValues(r)} on conflict (load_id) do nothing returning load_id`,
  );
  return rows.length === 1;
}

/** Insert many records (the demo seed, in chunks inside the caller's transaction); existing loads skipped. Returns the ids inserted. */
export async function insertRecords(tx: DbOrTx, rs: RateRecordRow[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < rs.length; i += 500) {
    const chunk = rs.slice(i, i + 500);
    const rows = await queryRows<{ load_id: string }>(
      tx,
      sql`insert into rate_records (${RECORD_COLUMNS}) values ${sql.join(chunk.map(recordValues), sql`, `)} on conflict (load_id) do nothing returning load_id`,
    );
    for (const r of rows) out.add(r.load_id);
  }
  return out;
}

/**
 * The SAR/km of the lane's (city → city, equipment, kind) records booked on or after `fromDay`
 * and on or before `toDay`, not cancelled, newest first, at most `limit` (the outlier baseline;
 * through rate_records_lane).
 */
export async function laneBaseline(
  tx: DbOrTx,
  l: { originCityId: number; destinationCityId: number; equipment: string; kind: RateKind },
  fromDay: string,
  toDay: string,
  limit = 500,
): Promise<number[]> {
  const rows = await queryRows<{ v: number }>(
    tx,
    sql`select per_km_sar::float8 as v from rate_records
        where origin_city_id = ${l.originCityId} and destination_city_id = ${l.destinationCityId} and equipment = ${l.equipment} and kind = ${l.kind}
          and booked_on between ${fromDay} and ${toDay} and cancelled_at is null and per_km_sar is not null
        order by booked_on desc limit ${limit}`,
  );
  return rows.map((r) => r.v);
}

/** Set a record's cancellation once: the record when newly cancelled, else null (no record, or cancelled already). */
export async function setCancelled(tx: DbOrTx, loadId: string, at: Date): Promise<RateRecordRow | null> {
  const [r] = await queryRows<{
    load_id: string;
    kind: RateKind;
    source: RateRecordRow['source'];
    company_id: string;
    carrier_id: string | null;
    booked_at: Date | string;
    booked_on: string;
    origin_city_id: number;
    origin_region_id: number;
    destination_city_id: number;
    destination_region_id: number;
    equipment: string;
    load_type: 'ftl' | 'ltl';
    distance_km: number;
    weight_kg: number | null;
    price_sar: number;
    per_km_sar: number | null;
    outlier: boolean;
  }>(
    tx,
    sql`update rate_records set cancelled_at = ${at.toISOString()} where load_id = ${loadId} and cancelled_at is null
        returning load_id, kind, source, company_id, carrier_id, booked_at, booked_on::text as booked_on, origin_city_id, origin_region_id,
                  destination_city_id, destination_region_id, equipment, load_type, distance_km::float8 as distance_km, weight_kg,
                  price_sar::float8 as price_sar, per_km_sar::float8 as per_km_sar, outlier`,
  );
  if (!r) return null;
  return {
    loadId: r.load_id,
    kind: r.kind,
    source: r.source,
    companyId: r.company_id,
    carrierId: r.carrier_id,
    bookedAt: new Date(r.booked_at),
    bookedOn: r.booked_on,
    originCityId: r.origin_city_id,
    originRegionId: r.origin_region_id,
    destinationCityId: r.destination_city_id,
    destinationRegionId: r.destination_region_id,
    equipment: r.equipment,
    loadType: r.load_type,
    distanceKm: r.distance_km,
    weightKg: r.weight_kg,
    priceSar: r.price_sar,
    perKmSar: r.per_km_sar,
    outlier: r.outlier,
  };
}

const deltaValues = (d: DailyDelta): SQL =>
  sql`(${d.level}, ${d.originKey}, ${d.destinationKey}, ${d.equipment}, ${d.kind}, ${d.day}, ${d.records}, ${d.sumSar.toFixed(2)}, ${d.sumSqSar},
       ${d.sumKm.toFixed(1)}, ${d.sumPerKm}, ${d.sumSqPerKm}, ${d.outliers}, ${JSON.stringify(d.histSar)}::jsonb, ${JSON.stringify(d.histKm)}::jsonb,
       ${JSON.stringify(d.companies)}::jsonb)`;

/** The first day of the month of a 'YYYY-MM-DD' day. */
export const monthOf = (day: string) => `${day.slice(0, 7)}-01`;

/**
 * Add daily deltas to lane_rate_daily and to its monthly rollup lane_rate_monthly (an upsert per
 * row; counts, sums and the sparse maps added with rate_counts_add). The deltas of one call must
 * have distinct keys. Chunks of 500 rows.
 */
export async function addDaily(tx: DbOrTx, deltas: DailyDelta[]): Promise<void> {
  await upsertDeltas(tx, sql.raw('lane_rate_daily'), deltas);
  await upsertDeltas(tx, sql.raw('lane_rate_monthly'), mergeByKey(deltas.map((d) => ({ ...d, day: monthOf(d.day) }))));
}

/** Deltas of equal keys (a month's days) added into one. */
function mergeByKey(deltas: DailyDelta[]): DailyDelta[] {
  const m = new Map<string, DailyDelta>();
  const add = (a: Record<string, number>, b: Record<string, number>) => {
    const o = { ...a };
    for (const [k, v] of Object.entries(b)) o[k] = (o[k] ?? 0) + v;
    return o;
  };
  for (const d of deltas) {
    const k = `${d.level}|${d.originKey}|${d.destinationKey}|${d.equipment}|${d.kind}|${d.day}`;
    const t = m.get(k);
    m.set(
      k,
      t
        ? {
            ...t,
            records: t.records + d.records,
            sumSar: t.sumSar + d.sumSar,
            sumSqSar: t.sumSqSar + d.sumSqSar,
            sumKm: t.sumKm + d.sumKm,
            sumPerKm: t.sumPerKm + d.sumPerKm,
            sumSqPerKm: t.sumSqPerKm + d.sumSqPerKm,
            outliers: t.outliers + d.outliers,
            histSar: add(t.histSar, d.histSar),
            histKm: add(t.histKm, d.histKm),
            companies: add(t.companies, d.companies),
          }
        : d,
    );
  }
  return [...m.values()];
}

async function upsertDeltas(tx: DbOrTx, table: SQL, deltas: DailyDelta[]): Promise<void> {
  for (let i = 0; i < deltas.length; i += 500) {
    const chunk = deltas.slice(i, i + 500);
    await tx.execute(
      sql`insert into ${table} as d (level, origin_key, destination_key, equipment, kind, day, records, sum_sar, sum_sq_sar, sum_km,
                                     sum_per_km, sum_sq_per_km, outliers, hist_sar, hist_km, companies)
          values ${sql.join(chunk.map(deltaValues), sql`, `)}
          on conflict (level, origin_key, destination_key, equipment, kind, day) do update set
            records = d.records + excluded.records,
            sum_sar = d.sum_sar + excluded.sum_sar,
            sum_sq_sar = d.sum_sq_sar + excluded.sum_sq_sar,
            sum_km = d.sum_km + excluded.sum_km,
            sum_per_km = d.sum_per_km + excluded.sum_per_km,
            sum_sq_per_km = d.sum_sq_per_km + excluded.sum_sq_per_km,
            outliers = d.outliers + excluded.outliers,
            hist_sar = rate_counts_add(d.hist_sar, excluded.hist_sar),
            hist_km = rate_counts_add(d.hist_km, excluded.hist_km),
            companies = rate_counts_add(d.companies, excluded.companies)`,
    );
  }
}

/** One row of lane_rate_daily or lane_rate_monthly as read by the history. */
export interface DailyRow {
  day: string;
  records: number;
  sum_sar: number;
  sum_sq_sar: number;
  sum_km: number;
  sum_per_km: number;
  sum_sq_per_km: number;
  outliers: number;
  hist_sar: Record<string, number>;
  hist_km: Record<string, number>;
  companies: Record<string, number>;
}

/** The monthly rollup rows of one lane (day = the month's first day), months from…to (inclusive), oldest first. */
export async function laneMonths(
  db: DbOrTx,
  k: { level: RateLevel; originKey: number; destinationKey: number; equipment: string; kind: RateKind },
  from: string,
  to: string,
): Promise<DailyRow[]> {
  return queryRows<DailyRow>(
    db,
    sql`select day::text as day, records, sum_sar::float8 as sum_sar, sum_sq_sar, sum_km::float8 as sum_km, sum_per_km, sum_sq_per_km, outliers,
               hist_sar, hist_km, companies
        from lane_rate_monthly
        where level = ${k.level} and origin_key = ${k.originKey} and destination_key = ${k.destinationKey} and equipment = ${k.equipment}
          and kind = ${k.kind} and day between ${from} and ${to}
        order by day`,
    'rates_lane_months',
    'generic',
  );
}

/** The city → city daily series (the forecast's input): records, SAR and km sums per day with records. */
export async function citySeries(
  db: DbOrTx,
  k: { originCityId: number; destinationCityId: number; equipment: string; kind: RateKind },
  from: string,
  to: string,
): Promise<{ day: string; records: number; sum_sar: number; sum_km: number }[]> {
  return queryRows(
    db,
    sql`select day::text as day, records, sum_sar::float8 as sum_sar, sum_km::float8 as sum_km from lane_rate_daily
        where level = 'city_city' and origin_key = ${k.originCityId} and destination_key = ${k.destinationCityId}
          and equipment = ${k.equipment} and kind = ${k.kind} and day between ${from} and ${to} and records > 0
        order by day`,
  );
}

/** A company's own records on a city → city lane since `fromDay` (not cancelled): count and average SAR per trip (rate_records_company_lane). */
export async function ownOnLane(
  db: DbOrTx,
  o: { companyId: string; originCityId: number; destinationCityId: number; equipment: string | null; kind: RateKind },
  fromDay: string,
): Promise<{ records: number; average: number | null }> {
  const [r] = await queryRows<{ n: number; avg: number | null }>(
    db,
    sql`select count(*)::int as n, avg(price_sar)::float8 as avg from rate_records
        where company_id = ${o.companyId} and origin_city_id = ${o.originCityId} and destination_city_id = ${o.destinationCityId}
          and booked_on >= ${fromDay} and cancelled_at is null and kind = ${o.kind}
          ${o.equipment === null ? sql`` : sql`and equipment = ${o.equipment}`}`,
  );
  return { records: r?.n ?? 0, average: r?.avg ?? null };
}

/** A company's own bookings on a city → city lane since `fromDay`, newest first, at most `limit` (not cancelled). */
export async function ownBookings(
  db: DbOrTx,
  o: { companyId: string; originCityId: number; destinationCityId: number; equipment: string | null; kind: RateKind },
  fromDay: string,
  limit = 100,
): Promise<{ day: string; price: number }[]> {
  return queryRows(
    db,
    sql`select booked_on::text as day, price_sar::float8 as price from rate_records
        where company_id = ${o.companyId} and origin_city_id = ${o.originCityId} and destination_city_id = ${o.destinationCityId}
          and booked_on >= ${fromDay} and cancelled_at is null and kind = ${o.kind}
          ${o.equipment === null ? sql`` : sql`and equipment = ${o.equipment}`}
        order by booked_on desc, booked_at desc limit ${limit}`,
  );
}

/** A city with its region and names (reference data). */
export interface CityRef {
  id: number;
  region_id: number;
  name_en: string;
  name_ar: string;
  region_en: string;
  region_ar: string;
}

/** Cities by id with their regions' names (reference tables; read-only). */
export async function citiesByIds(db: DbOrTx, ids: number[]): Promise<CityRef[]> {
  if (ids.length === 0) return [];
  return queryRows<CityRef>(
    db,
    sql`select c.id, c.region_id, c.name_en, c.name_ar, r.name_en as region_en, r.name_ar as region_ar
        from cities c join regions r on r.id = c.region_id where c.id in (${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )})`,
  );
}

/** Whether a company has any rate record (the demo seed's "already seeded" check; rate_records_company_lane). */
export async function companyHasRecords(db: DbOrTx, companyId: string): Promise<boolean> {
  const rows = await queryRows(db, sql`select 1 from rate_records where company_id = ${companyId} limit 1`);
  return rows.length > 0;
}

/**
 * Add records' aggregates to lane_rate_daily in one statement, grouped in the database (the bulk
 * paths: the demo seed, the bench): the records of `loadIds` (null: every record — a rebuild of
 * an empty lane_rate_daily), not cancelled, at the five levels × their equipment and '*'. The
 * buckets are computed as bucketOf does (float8 logarithms). Adds to existing rows like addDaily.
 */
export async function aggregateRecords(tx: DbOrTx, loadIds: string[] | null): Promise<void> {
  await aggregateInto(tx, loadIds, 'day');
  await aggregateInto(tx, loadIds, 'month');
}

/** aggregateRecords into lane_rate_daily (`day`) or lane_rate_monthly (`month`: day = the month's first day). */
export async function aggregateInto(tx: DbOrTx, loadIds: string[] | null, grain: 'day' | 'month'): Promise<void> {
  const table = sql.raw(grain === 'day' ? 'lane_rate_daily' : 'lane_rate_monthly');
  const dayOf = sql.raw(grain === 'day' ? 'r.booked_on' : "date_trunc('month', r.booked_on)::date");
  // the ids as a relation (a hash join), not `= any(array)` (a scan of the array per record)
  const only = loadIds === null ? sql`` : sql`join unnest(${`{${loadIds.join(',')}}`}::uuid[]) as k(id) on k.id = r.load_id`;
  const keys = sql.raw('level, origin_key, destination_key, equipment, kind, day');
  // the grouping sorts fit in memory (PGlite's default work_mem makes it spill: twice as slow)
  await tx.execute(sql`set local work_mem = '64MB'`);
  await tx.execute(sql`
    with x as (
      select l.level, l.origin_key, l.destination_key, e.equipment, r.kind, ${dayOf} as day, r.company_id, r.outlier,
             r.price_sar::float8 as price, r.distance_km::float8 as km, r.per_km_sar::float8 as per_km,
             least(399, greatest(0, floor(ln(r.price_sar::float8 / 50) / ln(1.02::float8))))::int as bs,
             case when r.per_km_sar > 0 then least(299, greatest(0, floor(ln(r.per_km_sar::float8 / 0.2) / ln(1.02::float8))))::int end as bk
      from rate_records r ${only}
      cross join lateral (values ('city_city', r.origin_city_id, r.destination_city_id), ('region_city', r.origin_region_id, r.destination_city_id),
                                 ('city_region', r.origin_city_id, r.destination_region_id), ('region_region', r.origin_region_id, r.destination_region_id),
                                 ('national', 0, 0)) l(level, origin_key, destination_key)
      cross join lateral (values (r.equipment), ('*')) e(equipment)
      where r.cancelled_at is null
    ),
    g as (
      select ${keys}, count(*) filter (where not outlier)::int as records, coalesce(sum(price) filter (where not outlier), 0) as sum_sar,
             coalesce(sum(price * price) filter (where not outlier), 0) as sum_sq_sar, coalesce(sum(km) filter (where not outlier), 0) as sum_km,
             coalesce(sum(per_km) filter (where not outlier), 0) as sum_per_km, coalesce(sum(per_km * per_km) filter (where not outlier), 0) as sum_sq_per_km,
             count(*) filter (where outlier)::int as outliers
      from x group by ${keys}
    ),
    hs as (select ${keys}, jsonb_object_agg(bs, n) as h from (select ${keys}, bs, count(*)::int as n from x where not outlier group by ${keys}, bs) y group by ${keys}),
    hk as (select ${keys}, jsonb_object_agg(bk, n) as h from (select ${keys}, bk, count(*)::int as n from x where not outlier and bk is not null group by ${keys}, bk) y group by ${keys}),
    co as (select ${keys}, jsonb_object_agg(company_id, n) as h from (select ${keys}, company_id, count(*)::int as n from x where not outlier group by ${keys}, company_id) y group by ${keys})
    insert into ${table} as d (level, origin_key, destination_key, equipment, kind, day, records, sum_sar, sum_sq_sar, sum_km,
                                      sum_per_km, sum_sq_per_km, outliers, hist_sar, hist_km, companies)
    select g.level, g.origin_key, g.destination_key, g.equipment, g.kind, g.day, g.records, g.sum_sar, g.sum_sq_sar, g.sum_km, g.sum_per_km, g.sum_sq_per_km,
           g.outliers, coalesce(hs.h, '{}'), coalesce(hk.h, '{}'), coalesce(co.h, '{}')
    from g left join hs using (level, origin_key, destination_key, equipment, kind, day)
           left join hk using (level, origin_key, destination_key, equipment, kind, day)
           left join co using (level, origin_key, destination_key, equipment, kind, day)
    on conflict (level, origin_key, destination_key, equipment, kind, day) do update set
      records = d.records + excluded.records,
      sum_sar = d.sum_sar + excluded.sum_sar,
      sum_sq_sar = d.sum_sq_sar + excluded.sum_sq_sar,
      sum_km = d.sum_km + excluded.sum_km,
      sum_per_km = d.sum_per_km + excluded.sum_per_km,
      sum_sq_per_km = d.sum_sq_per_km + excluded.sum_sq_per_km,
      outliers = d.outliers + excluded.outliers,
      hist_sar = rate_counts_add(d.hist_sar, excluded.hist_sar),
      hist_km = rate_counts_add(d.hist_km, excluded.hist_km),
      companies = rate_counts_add(d.companies, excluded.companies)`);
}

const ROW_COLUMNS = sql.raw('records, sum_sar, sum_sq_sar, sum_per_km, sum_sq_per_km, outliers, hist_sar, hist_km, companies');

/**
 * The rows of a window from…to: its whole months from lane_rate_monthly, the days of its partial
 * months from lane_rate_daily (a window without a whole month: daily rows only).
 */
function windowRows(k: { level: RateLevel; originKey: number; destinationKey: number; equipment: string; kind: RateKind }, from: string, to: string): SQL {
  const key = sql`level = ${k.level} and origin_key = ${k.originKey} and destination_key = ${k.destinationKey} and equipment = ${k.equipment} and kind = ${k.kind}`;
  const firstWhole = from.endsWith('-01') ? from : nextMonth(monthOf(from));
  const afterLastWhole = monthOf(nextDay(to)) === nextDay(to) ? nextDay(to) : monthOf(to);
  if (firstWhole >= afterLastWhole) return sql`select ${ROW_COLUMNS} from lane_rate_daily where ${key} and day between ${from} and ${to}`;
  return sql`select ${ROW_COLUMNS} from lane_rate_monthly where ${key} and day >= ${firstWhole} and day < ${afterLastWhole}
             union all
             select ${ROW_COLUMNS} from lane_rate_daily where ${key} and ((day >= ${from} and day < ${firstWhole}) or (day >= ${afterLastWhole} and day <= ${to}))`;
}
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const nextMonth = (month: string) => {
  const d = new Date(`${month}T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
};

/** A lane window summed in the database (laneSummary). */
export interface LaneSummaryRow {
  records: number;
  sum_sar: number;
  sum_sq_sar: number;
  sum_per_km: number;
  sum_sq_per_km: number;
  outliers: number;
  companies: number;
  top: number;
  hist_sar: Record<string, number> | null;
  hist_km: Record<string, number> | null;
}

/**
 * The sums of a lane's daily rows over days from…to, added up in the database (no map is sent to
 * the application): records, sums, outliers, the number of companies and the largest company's
 * records (the company maps summed), and the two histograms summed. The histograms and company
 * maps are read only when the window has at least `minRecords` records.
 */
export async function laneSummary(
  db: DbOrTx,
  k: { level: RateLevel; originKey: number; destinationKey: number; equipment: string; kind: RateKind },
  from: string,
  to: string,
  minRecords: number,
): Promise<LaneSummaryRow> {
  const [r] = await queryRows<LaneSummaryRow>(
    db,
    sql`with d as (${windowRows(k, from, to)}),
        s as (select coalesce(sum(records), 0)::int as records, coalesce(sum(sum_sar), 0)::float8 as sum_sar, coalesce(sum(sum_sq_sar), 0)::float8 as sum_sq_sar,
                     coalesce(sum(sum_per_km), 0)::float8 as sum_per_km, coalesce(sum(sum_sq_per_km), 0)::float8 as sum_sq_per_km,
                     coalesce(sum(outliers), 0)::int as outliers from d)
        select s.*, c.companies, c.top, hs.h as hist_sar, hk.h as hist_km
        from s
        cross join lateral (select count(*) filter (where n > 0)::int as companies, coalesce(max(n), 0)::int as top
                            from (select sum(value::int) as n from d, jsonb_each_text(d.companies) where s.records >= ${minRecords} group by key) x) c
        cross join lateral (select jsonb_object_agg(key, n) as h
                            from (select key, sum(value::int) as n from d, jsonb_each_text(d.hist_sar) where s.records >= ${minRecords} group by key) x) hs
        cross join lateral (select jsonb_object_agg(key, n) as h
                            from (select key, sum(value::int) as n from d, jsonb_each_text(d.hist_km) where s.records >= ${minRecords} group by key) x) hk`,
    'rates_lane_summary',
    'generic',
  );
  return r;
}
