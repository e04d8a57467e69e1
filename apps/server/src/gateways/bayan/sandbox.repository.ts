import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';
import type { BayanTrip } from './bayan.ts';
import type { BayanSandboxStore } from './sandbox.ts';

/**
 * The sandbox Bayan service's trips in `bayan_sandbox_trips` (migration 0083): a restart or a
 * second instance sees the same trips, as with the real service. Only the sandbox writes it.
 * `idempotency_key` (migration 0099): one trip per key, as the real service's Idempotency-Key.
 */
export function dbBayanStore(db: DbOrTx): BayanSandboxStore {
  return {
    async nextTripId() {
      const [r] = await queryRows<{ id: number }>(db, sql`select nextval('bayan_sandbox_ids')::int8::float8 as id`);
      return Number(r.id);
    },
    async get(tripId) {
      const [r] = await queryRows<{ payload: BayanTrip }>(db, sql`select payload from bayan_sandbox_trips where trip_id = ${tripId}`);
      return r ? r.payload : null;
    },
    async put(trip, isNew, idempotencyKey) {
      const payload = JSON.stringify(trip);
      if (!isNew) {
        await db.execute(sql`update bayan_sandbox_trips set payload = ${payload}::jsonb, updated_at = now() where trip_id = ${Number(trip.tripId)}`);
        return trip;
      }
      // a key that already filed a trip keeps it (the unique index holds under races); that trip is the answer
      const inserted = await queryRows<{ trip_id: unknown }>(
        db,
        sql`insert into bayan_sandbox_trips (trip_id, payload, idempotency_key) values (${Number(trip.tripId)}, ${payload}::jsonb, ${idempotencyKey ?? null})
            on conflict (idempotency_key) where idempotency_key is not null do nothing returning trip_id`,
      );
      if (inserted.length > 0) return trip;
      const [first] = await queryRows<{ payload: BayanTrip }>(
        db,
        sql`select payload from bayan_sandbox_trips where idempotency_key = ${idempotencyKey ?? null}`,
      );
      return first.payload;
    },
  };
}
