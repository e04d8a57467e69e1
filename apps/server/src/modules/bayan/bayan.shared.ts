import { formatPlate, plateFromStored, type BayanTripView } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { BayanRejectedError, BayanUnavailableError, type BayanTrip } from '../../gateways/bayan/bayan.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import * as repo from './bayan.repository.ts';
import type { BayanDeps } from './deps.ts';
import { transitionTrip } from './lifecycle.ts';

/** `YYYY-MM-DD` of an instant in Asia/Riyadh (Bayan dates are local calendar dates). */
export const riyadhDate = (d: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Riyadh', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);

/**
 * The Idempotency-Key sent to Bayan for a trip creation (issue 22): the load and the attempt
 * (the `bayan_trips` reservation row; a new attempt after a cancellation is a new row). The
 * request and its retry job send the same key, so Bayan answers the first trip again instead
 * of filing a second permit when a process died between Bayan's answer and the commit.
 */
export const bayanIdempotencyKey = (loadId: string, reservationId: string) => `masar-bayan-${loadId}-${reservationId}`;

/** Seconds after which a `pending` trip has lost its request: staleSeconds (default 30), at least timeoutMs + 5 s. */
export const staleSecondsOf = (deps: Pick<BayanDeps, 'staleSeconds' | 'timeoutMs'>) => Math.max(deps.staleSeconds ?? 30, Math.ceil(deps.timeoutMs / 1000) + 5);

/** A Bayan call that has not answered within `timeoutMs` fails as BayanUnavailableError. */
export async function withTimeout<T>(deps: Pick<BayanDeps, 'timeoutMs'>, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BayanUnavailableError(`Bayan did not answer within ${deps.timeoutMs} ms`)), deps.timeoutMs);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A gateway failure as the API's error. */
export function gatewayError(e: unknown): never {
  if (e instanceof BayanRejectedError) throw new AppError('BAYAN_REJECTED', { errors: e.errors.map((x) => ({ path: x.path, message: x.code })) });
  if (e instanceof BayanUnavailableError) throw new AppError('BAYAN_UNAVAILABLE');
  throw e;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toView(r: repo.TripListRow): BayanTripView {
  return {
    id: r.id,
    loadId: r.loadId,
    loadReferenceId: r.referenceId,
    status: r.status,
    tripId: r.tripId,
    waybillId: r.waybillId,
    waybillNumber: r.waybillNumber,
    vehicleId: r.vehicleId,
    plateText: formatPlate(plateFromStored(r.plateDigits, r.plateLetters)),
    driverId: r.driverId,
    driverName: `${r.driverFirstName} ${r.driverLastName}`.trim(),
    fromEn: r.fromEn,
    fromAr: r.fromAr,
    toEn: r.toEn,
    toAr: r.toAr,
    cancelReason: r.cancelReason,
    deliveredAt: iso(r.deliveredAt),
    attempts: r.attempts,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** A trip as the API shows it (NOT_FOUND when there is none). */
export async function view(db: DbOrTx, id: string): Promise<BayanTripView> {
  const r = await repo.listRow(db, id);
  if (!r) throw new AppError('NOT_FOUND');
  return toView(r);
}

/** The row, if the user is its carrier or shipper (404 otherwise). */
export async function mustTrip(tx: DbOrTx, user: CurrentUser, id: string, lock = false) {
  const r = await repo.getTrip(tx, id, lock);
  if (!r || (r.carrierId !== user.id && r.shipperId !== user.id)) throw new AppError('NOT_FOUND');
  return r;
}

/** Record Bayan's answer on a pending row and, if the shipment waits in pending_bayan, move it back to assigned (one transaction: transitionTrip 'create'). */
export async function recordCreated(deps: Pick<BayanDeps, 'db' | 'loads'>, rowId: string, trip: BayanTrip, actorId: string | null): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const row = await repo.getTrip(tx, rowId, true);
    if (!row || row.status !== 'pending') return false;
    const w = trip.waybills[0];
    await transitionTrip(tx, deps.loads, row, 'create', actorId, {
      set: { tripId: trip.tripId, waybillId: w?.waybillId ?? null, waybillNumber: w?.waybillNumber ?? null, lastError: null },
      data: { tripId: trip.tripId, waybillNumber: w?.waybillNumber ?? null },
    });
    return true;
  });
}
