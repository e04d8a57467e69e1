import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rateAlertFirings, rateAlerts } from '../../db/schema/index.ts';
import { inList, queryRows } from '../../lib/sql.ts';

/*
 * Rate-change alerts (issue 20; migration 0113). Writes only rate_alerts and rate_alert_firings;
 * reads lane_rate_daily (owned by the rates index) and the account's language and city names.
 */

/** An alert with its lane's city names and when it last fired. */
export interface AlertRow {
  id: string;
  accountId: string;
  originCityId: number;
  destinationCityId: number;
  originEn: string;
  originAr: string;
  destinationEn: string;
  destinationAr: string;
  equipment: string;
  kind: 'spot' | 'contract';
  direction: 'up' | 'down' | 'both';
  threshold: number;
  unit: 'pct' | 'sar';
  email: string;
  active: boolean;
  createdAt: Date;
  lastTriggeredAt: Date | null;
}

const alertSelect = sql`select a.id, a.account_id as "accountId", a.origin_city_id as "originCityId", a.destination_city_id as "destinationCityId",
       oc.name_en as "originEn", oc.name_ar as "originAr", dc.name_en as "destinationEn", dc.name_ar as "destinationAr",
       a.equipment, a.kind, a.direction, a.threshold::float8 as threshold, a.unit, a.email, a.active, a.created_at as "createdAt",
       (select max(f.fired_at) from rate_alert_firings f where f.alert_id = a.id) as "lastTriggeredAt"
  from rate_alerts a
  join cities oc on oc.id = a.origin_city_id
  join cities dc on dc.id = a.destination_city_id`;

const withDates = (r: AlertRow): AlertRow => ({
  ...r,
  createdAt: new Date(r.createdAt),
  lastTriggeredAt: r.lastTriggeredAt ? new Date(r.lastTriggeredAt) : null,
});

/** An account's alerts, newest first (at most the cap: one index range). */
export async function listAlerts(db: DbOrTx, accountId: string): Promise<AlertRow[]> {
  return (await queryRows<AlertRow>(db, sql`${alertSelect} where a.account_id = ${accountId} order by a.created_at desc, a.id desc`)).map(withDates);
}

export async function alertById(db: DbOrTx, id: string): Promise<AlertRow | null> {
  const [r] = await queryRows<AlertRow>(db, sql`${alertSelect} where a.id = ${id}`);
  return r ? withDates(r) : null;
}

export async function countAlerts(db: DbOrTx, accountId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(rateAlerts)
    .where(eq(rateAlerts.accountId, accountId));
  return Number(r?.n ?? 0);
}

/** The ids of cities that exist among `ids`. */
export async function existingCityIds(db: DbOrTx, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await queryRows<{ id: number }>(db, sql`select id from cities where id in ${inList(ids)}`);
  return new Set(rows.map((r) => Number(r.id)));
}

/** Insert an alert; false when the account has an identical one already (the unique index rate_alerts_identical; issue 46). */
export async function insertAlert(
  tx: DbOrTx,
  row: {
    id: string;
    accountId: string;
    originCityId: number;
    destinationCityId: number;
    equipment: string;
    kind: 'spot' | 'contract';
    direction: 'up' | 'down' | 'both';
    threshold: string;
    unit: 'pct' | 'sar';
    email: string;
  },
): Promise<boolean> {
  const r = await tx.insert(rateAlerts).values(row).onConflictDoNothing().returning({ id: rateAlerts.id });
  return r.length === 1;
}

export async function updateAlert(
  db: DbOrTx,
  accountId: string,
  id: string,
  set: Partial<{ active: boolean; direction: 'up' | 'down' | 'both'; threshold: string; unit: 'pct' | 'sar'; email: string }>,
): Promise<boolean> {
  const r = await db
    .update(rateAlerts)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(rateAlerts.id, id), eq(rateAlerts.accountId, accountId)))
    .returning({ id: rateAlerts.id });
  return r.length > 0;
}

export async function deleteAlert(db: DbOrTx, accountId: string, id: string): Promise<boolean> {
  const r = await db
    .delete(rateAlerts)
    .where(and(eq(rateAlerts.id, id), eq(rateAlerts.accountId, accountId)))
    .returning({ id: rateAlerts.id });
  return r.length > 0;
}

/** An active alert with its lane's average SAR per trip on the two days compared (null: no records that day). */
export interface AlertWindow {
  id: string;
  accountId: string;
  originCityId: number;
  destinationCityId: number;
  equipment: string;
  kind: 'spot' | 'contract';
  direction: 'up' | 'down' | 'both';
  threshold: number;
  unit: 'pct' | 'sar';
  previousAvg: number | null;
  currentAvg: number | null;
}

/**
 * Every active alert with its lane's average on `currentDay` and on `previousDay` (city→city rows
 * of lane_rate_daily, the alert's equipment or '*', its kind): one pass over the active alerts,
 * two primary-key lookups each.
 */
export function activeAlertWindows(db: DbOrTx, previousDay: string, currentDay: string): Promise<AlertWindow[]> {
  const avg = (day: string) =>
    sql`(select (d.sum_sar / nullif(d.records, 0))::float8 from lane_rate_daily d
          where d.level = 'city_city' and d.origin_key = a.origin_city_id and d.destination_key = a.destination_city_id
            and d.equipment = a.equipment and d.kind = a.kind and d.day = ${day}::date)`;
  return queryRows<AlertWindow>(
    db,
    sql`select a.id, a.account_id as "accountId", a.origin_city_id as "originCityId", a.destination_city_id as "destinationCityId",
               a.equipment, a.kind, a.direction, a.threshold::float8 as threshold, a.unit,
               ${avg(previousDay)} as "previousAvg", ${avg(currentDay)} as "currentAvg"
          from rate_alerts a where a.active order by a.id`,
  );
}

/**
 * Record a firing of an alert for a window; false when this (alert, window) fired already (the
 * unique constraint: concurrent job runs insert one row, the others nothing) or the alert is gone.
 */
export async function insertFiring(
  tx: DbOrTx,
  row: { id: string; alertId: string; windowKey: string; previousAvgSar: string; currentAvgSar: string; changePct: string },
): Promise<boolean> {
  const r = await queryRows<{ id: string }>(
    tx,
    sql`insert into rate_alert_firings (id, alert_id, window_key, previous_avg_sar, current_avg_sar, change_pct)
        select ${row.id}, a.id, ${row.windowKey}, ${row.previousAvgSar}, ${row.currentAvgSar}, ${row.changePct}
          from rate_alerts a where a.id = ${row.alertId} and a.active
        on conflict (alert_id, window_key) do nothing
        returning id`,
  );
  return r.length > 0;
}

/** A firing to e-mail (locked for the handler's transaction), with its alert and the account's language. */
export interface FiringForEmail {
  id: string;
  emailedAt: Date | null;
  email: string;
  language: string;
  originEn: string;
  originAr: string;
  destinationEn: string;
  destinationAr: string;
  equipment: string;
  kind: 'spot' | 'contract';
}

export async function firingForUpdate(tx: DbOrTx, firingId: string): Promise<FiringForEmail | null> {
  const [r] = await queryRows<FiringForEmail>(
    tx,
    sql`select f.id, f.emailed_at as "emailedAt", a.email, u.language, oc.name_en as "originEn", oc.name_ar as "originAr",
               dc.name_en as "destinationEn", dc.name_ar as "destinationAr", a.equipment, a.kind
          from rate_alert_firings f
          join rate_alerts a on a.id = f.alert_id
          join users u on u.id = a.account_id
          join cities oc on oc.id = a.origin_city_id
          join cities dc on dc.id = a.destination_city_id
         where f.id = ${firingId}
           for update of f`,
  );
  return r ?? null;
}

export async function recordEmail(tx: DbOrTx, firingId: string, set: { emailedAt?: Date; lastError: string | null }): Promise<void> {
  await tx.update(rateAlertFirings).set(set).where(eq(rateAlertFirings.id, firingId));
}
