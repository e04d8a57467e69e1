import { sql } from 'drizzle-orm';
import type { BayanTripStatus } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { bayanTrips } from '../../db/schema/bayan.ts';
import type { NewBayanTrip } from './bayan.repository.ts';

/**
 * The only SQL that writes `bayan_trips.status` (issue 51: every status by a transition table).
 * Called by `transitionTrip()` in lifecycle.ts and nothing else; test/boundaries.test.ts fails
 * when any other server file writes the column. A trip is inserted `pending` (bayan.repository.ts).
 */

/** Columns a trip transition may set beside the status: Bayan's ids (create), the delivery (close), the reason (cancel). */
export type TripTransitionSet = Partial<Pick<NewBayanTrip, 'tripId' | 'waybillId' | 'waybillNumber' | 'lastError' | 'deliveredAt' | 'cancelReason'>>;

/**
 * `update bayan_trips set status = $to, … where id = $id and status = $from`: the conditional
 * update that decides a race between two transitions. False when no row matched (the status
 * changed meanwhile).
 */
export async function transitionTripRow(tx: DbOrTx, id: string, from: BayanTripStatus, to: BayanTripStatus, set: TripTransitionSet): Promise<boolean> {
  const rows = await tx
    .update(bayanTrips)
    .set({ ...set, status: to, updatedAt: new Date() })
    .where(sql`${bayanTrips.id} = ${id} and ${bayanTrips.status} = ${from}`)
    .returning({ id: bayanTrips.id });
  return rows.length > 0;
}
