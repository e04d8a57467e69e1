import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';
import type { BayanTrip } from './bayan.ts';
import type { BayanSandboxStore } from './sandbox.ts';

/**
 * The sandbox Bayan service's trips in `bayan_sandbox_trips` (migration 0083): a restart or a
 * second instance sees the same trips, as with the real service. Only the sandbox writes it.
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
    async put(trip, isNew) {
      const payload = JSON.stringify(trip);
      if (isNew) await db.execute(sql`insert into bayan_sandbox_trips (trip_id, payload) values (${Number(trip.tripId)}, ${payload}::jsonb)`);
      else await db.execute(sql`update bayan_sandbox_trips set payload = ${payload}::jsonb, updated_at = now() where trip_id = ${Number(trip.tripId)}`);
    },
  };
}
