import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { detentionDecisions } from '../../db/schema/index.ts';
import { queryRows } from '../../lib/sql.ts';

/**
 * The SQL of detention (table detention_decisions, migration 0142). Reads the load's terms and
 * parties and the trip's steps and proofs (tables of loads and trips, read only).
 */
export type DecisionRow = typeof detentionDecisions.$inferSelect;

export interface DetentionTerms {
  shipperId: string;
  carrierId: string | null;
  freeHours: number | null;
  rate: string | null;
  cap: string | null;
}
export async function termsOf(db: DbOrTx, loadId: string): Promise<DetentionTerms | undefined> {
  const [r] = await queryRows<{ shipper_id: string; carrier_id: string | null; free: number | null; rate: string | null; cap: string | null }>(
    db,
    sql`select shipper_id, carrier_id, detention_free_hours as free, detention_rate::text as rate, detention_cap::text as cap
        from loads where id = ${loadId} and deleted_at is null`,
  );
  return r && { shipperId: r.shipper_id, carrierId: r.carrier_id, freeHours: r.free == null ? null : Number(r.free), rate: r.rate, cap: r.cap };
}

export interface StepFact {
  step: string;
  at: Date;
  recordedAt: Date | null;
  lat: number | null;
  lng: number | null;
  distanceKm: number | null;
  flagged: boolean;
}
export async function stepsOf(db: DbOrTx, loadId: string): Promise<StepFact[]> {
  const rows = await queryRows<{
    step: string;
    at: Date | string;
    recorded_at: Date | string | null;
    lat: number | null;
    lng: number | null;
    distance_km: number | null;
    flagged: boolean;
  }>(db, sql`select step, at, recorded_at, lat, lng, distance_km, flagged from trip_steps where load_id = ${loadId}`);
  return rows.map((r) => ({
    step: r.step,
    at: new Date(r.at),
    recordedAt: r.recorded_at ? new Date(r.recorded_at) : null,
    lat: r.lat == null ? null : Number(r.lat),
    lng: r.lng == null ? null : Number(r.lng),
    distanceKm: r.distance_km == null ? null : Number(r.distance_km),
    flagged: r.flagged,
  }));
}

export async function proofIdsOf(db: DbOrTx, loadId: string): Promise<Record<string, string>> {
  const rows = await queryRows<{ id: string; stop: string }>(db, sql`select id, stop from trip_proofs where load_id = ${loadId}`);
  return Object.fromEntries(rows.map((r) => [r.stop, r.id]));
}

export async function decisionsOf(db: DbOrTx, loadId: string): Promise<DecisionRow[]> {
  return queryRows<DecisionRow>(
    db,
    sql`select load_id as "loadId", stop, decision, amount_halalas::float8 as "amountHalalas", billable_minutes as "billableMinutes",
          reason, decided_by as "decidedBy", decided_at as "decidedAt" from detention_decisions where load_id = ${loadId}`,
  );
}

/** Record a stop's decision once; false when it had one (primary key (load_id, stop)). */
export async function insertDecision(tx: DbOrTx, row: typeof detentionDecisions.$inferInsert): Promise<boolean> {
  const r = await tx.insert(detentionDecisions).values(row).onConflictDoNothing().returning({ stop: detentionDecisions.stop });
  return r.length > 0;
}
