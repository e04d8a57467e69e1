import { PROOF_MAX_BYTES, tripStepAllowed, type GeoError, type ProofStop, type TripProof, type TripStep } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import { greatCircleKm } from '../../../lib/geo.ts';
import { newId } from '../../../lib/ids.ts';
import { replayNext } from '../../../lib/tx-journal.ts';
import * as repo from '../trips.repository.ts';
import type { TripsDeps } from '../deps.ts';
import { outOfOrder, round3, runningTrip, sniffProofMime, toProof } from '../trips.shared.ts';

export type UploadProofDeps = Pick<TripsDeps, 'db' | 'storage' | 'loads' | 'config' | 'now'>;

type ProofFields = { loadId: string; stop: ProofStop; lat?: number; lng?: number; geoError?: GeoError };

/**
 * Proof of pickup or drop (a photo or PDF, at most 10 MB, sniffed by magic bytes), stored
 * through the storage gateway, recorded as the step pickup_proof / drop_proof. A proof taken
 * farther than PROOF_GEOFENCE_KM (great circle) from its stop is stored flagged with its
 * distance and publishes 'trip.proof_flagged'. Errors: PROOF_TOO_LARGE, PROOF_TYPE_NOT_ALLOWED,
 * UPLOAD_FILE_FIRST, TRIP_STEP_OUT_OF_ORDER, NOT_FOUND.
 */
export async function uploadProof(deps: UploadProofDeps, driverId: string, f: ProofFields, data: Buffer): Promise<TripProof> {
  const { db, storage } = deps;
  if (data.length === 0) throw new AppError('UPLOAD_FILE_FIRST');
  if (data.length > PROOF_MAX_BYTES) throw new AppError('PROOF_TOO_LARGE');
  const mime = await sniffProofMime(data);
  if (!mime) throw new AppError('PROOF_TYPE_NOT_ALLOWED');
  const step: TripStep = f.stop === 'pickup' ? 'pickup_proof' : 'drop_proof';
  // a same-key retry after a crash that committed the proof answers that proof (its id is the
  // replay key): no second copy of the bytes, no second step
  const replayed = replayNext();
  if (replayed) return toProof(replayed.value as repo.ProofRow);
  // refuse early (before storing bytes) when the step is not next; checked again under the lock
  {
    const steps = await repo.stepsOf(db, [f.loadId]);
    if (!tripStepAllowed(steps.at(-1)?.step ?? null, step)) throw outOfOrder(steps.at(-1)?.step ?? null);
  }
  const id = newId();
  const at = deps.now();
  const key = `trip-proofs/${at.getUTCFullYear()}/${String(at.getUTCMonth() + 1).padStart(2, '0')}/${id}`;
  await storage.put(key, data);
  try {
    const row = await db.transaction((tx) => saveProof(deps, tx, driverId, f, { id, step, mime, size: data.length, key, at }));
    return toProof(row);
  } catch (e) {
    await storage.delete(key).catch(() => undefined);
    throw e;
  }
}

/**
 * Under the load's lock: check the step is next, measure the distance to the stop, record the
 * proof and its step, publish 'trip.step' (and 'trip.proof_flagged' beyond the geofence).
 */
async function saveProof(
  deps: Pick<TripsDeps, 'loads' | 'config'>,
  tx: DbOrTx,
  driverId: string,
  f: ProofFields,
  p: { id: string; step: TripStep; mime: string; size: number; key: string; at: Date },
): Promise<repo.ProofRow> {
  const { loads, config } = deps;
  const { id, step, mime, key, at } = p;
  const { trip, last } = await runningTrip(deps, tx, driverId, f.loadId);
  if (!tripStepAllowed(last, step)) throw outOfOrder(last);
  const stop = (await repo.endStops(tx, [f.loadId])).find((s) => s.stop === f.stop)!;
  const hasPos = f.lat !== undefined && f.lng !== undefined;
  const distanceKm = hasPos ? greatCircleKm(f.lat!, f.lng!, stop.lat, stop.lng) : null;
  const flagged = distanceKm !== null && distanceKm > config.PROOF_GEOFENCE_KM;
  const proof: repo.ProofRow = {
    id,
    load_id: f.loadId,
    driver_id: driverId,
    stop: f.stop,
    mime,
    size: p.size,
    storage_key: key,
    at,
    lat: hasPos ? f.lat! : null,
    lng: hasPos ? f.lng! : null,
    distance_km: distanceKm,
    flagged,
  };
  await repo.insertProof(tx, {
    id,
    loadId: f.loadId,
    driverId,
    stop: f.stop,
    mime,
    size: p.size,
    storageKey: key,
    at,
    lat: proof.lat,
    lng: proof.lng,
    distanceKm,
    flagged,
  });
  await repo.insertStep(tx, {
    id: newId(),
    loadId: f.loadId,
    driverId,
    step,
    at,
    lat: proof.lat,
    lng: proof.lng,
    geoError: hasPos ? null : (f.geoError ?? null),
  });
  const dist = distanceKm === null ? null : round3(distanceKm);
  await loads.event(tx, 'trip.step', f.loadId, trip.shipper_id, null, { step, driverId, at: at.toISOString(), proofId: id, distanceKm: dist, flagged });
  if (flagged)
    await loads.event(tx, 'trip.proof_flagged', f.loadId, trip.shipper_id, null, {
      proofId: id,
      stop: f.stop,
      distanceKm: dist,
      limitKm: config.PROOF_GEOFENCE_KM,
    });
  return proof;
}
