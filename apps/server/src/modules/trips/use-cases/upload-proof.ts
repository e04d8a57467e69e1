import { PROOF_MAX_BYTES, tripStepAllowed, type GeoError, type ProofStop, type TripProof, type TripStep } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import { replayNext } from '../../../lib/tx-journal.ts';
import * as repo from '../trips.repository.ts';
import type { TripsDeps } from '../deps.ts';
import { checkDeviceTime, geofence, outOfOrder, round3, runningTrip, sniffProofMime, stepTime, toProof } from '../trips.shared.ts';

export type UploadProofDeps = Pick<TripsDeps, 'db' | 'storage' | 'loads' | 'config' | 'now'>;

type ProofFields = { loadId: string; stop: ProofStop; lat?: number; lng?: number; geoError?: GeoError; recordedAt?: string };

/** What the upload answers: the proof, and whether the server already had it (a replay; nothing stored again). */
export type ProofResult = { proof: TripProof; replayed: boolean };

/**
 * Proof of pickup or drop (a photo or PDF, at most 10 MB, sniffed by magic bytes), stored
 * through the storage gateway, recorded as the step pickup_proof / drop_proof. A proof taken
 * farther than PROOF_GEOFENCE_KM (great circle) from its stop is stored flagged with its
 * distance and publishes 'trip.proof_flagged'. The device's time of the photo (`recordedAt`) is
 * kept beside the server's within the bounds of checkDeviceTime (issue 49). A proof of a stop the
 * server already has (sent twice, or from a second phone) answers that proof as a replay, its bytes
 * not stored again. Errors: PROOF_TOO_LARGE, PROOF_TYPE_NOT_ALLOWED, UPLOAD_FILE_FIRST,
 * TRIP_STEP_OUT_OF_ORDER, DEVICE_TIME_IN_FUTURE, DEVICE_TIME_BEFORE_ASSIGNMENT,
 * TRIP_STEP_TIME_BEFORE_PREVIOUS, NOT_FOUND.
 */
export async function uploadProof(deps: UploadProofDeps, driverId: string, f: ProofFields, data: Buffer): Promise<ProofResult> {
  const { db, storage } = deps;
  if (data.length === 0) throw new AppError('UPLOAD_FILE_FIRST');
  if (data.length > PROOF_MAX_BYTES) throw new AppError('PROOF_TOO_LARGE');
  const mime = await sniffProofMime(data);
  if (!mime) throw new AppError('PROOF_TYPE_NOT_ALLOWED');
  const step: TripStep = f.stop === 'pickup' ? 'pickup_proof' : 'drop_proof';
  // a same-key retry after a crash that committed the proof answers that proof (its id is the
  // replay key): no second copy of the bytes, no second step
  const recovered = replayNext();
  if (recovered) {
    const v = recovered.value as SavedProof | repo.ProofRow;
    return 'row' in v ? answer(v) : answer({ row: v, replayed: false }); // a journal written before issue 49 holds the row
  }
  // answer a proof the server has, and refuse early (before storing bytes) when the step is not
  // next; both checked again under the lock
  {
    const had = await repo.proofOfStop(db, f.loadId, f.stop);
    if (had && had.driver_id === driverId) return { proof: toProof(had), replayed: true };
    const steps = await repo.stepsOf(db, [f.loadId]);
    if (!tripStepAllowed(steps.at(-1)?.step ?? null, step)) throw outOfOrder(steps.at(-1)?.step ?? null);
  }
  const id = newId();
  const at = deps.now();
  const key = `trip-proofs/${at.getUTCFullYear()}/${String(at.getUTCMonth() + 1).padStart(2, '0')}/${id}`;
  await storage.put(key, data);
  let saved: SavedProof;
  try {
    saved = await db.transaction((tx) => saveProof(deps, tx, driverId, f, { id, step, mime, size: data.length, key, at }));
  } catch (e) {
    await storage.delete(key).catch(() => undefined);
    throw e;
  }
  // another send of this proof committed first: its bytes are the record, these are not kept
  if (saved.replayed) await storage.delete(key).catch(() => undefined);
  return answer(saved);
}

/** What the proof's transaction returns (recorded in the idempotency journal): the row, and whether it was there before. */
type SavedProof = { row: repo.ProofRow; replayed: boolean };
const answer = (s: SavedProof): ProofResult => ({ proof: toProof(s.row), replayed: s.replayed });

/**
 * Under the load's lock: answer the proof the server has (a replay), else check the step is next
 * and the device time in bounds, measure the distance to the stop, record the proof and its step,
 * publish 'trip.step' (and 'trip.proof_flagged' beyond the geofence).
 */
async function saveProof(
  deps: Pick<TripsDeps, 'loads' | 'config'>,
  tx: DbOrTx,
  driverId: string,
  f: ProofFields,
  p: { id: string; step: TripStep; mime: string; size: number; key: string; at: Date },
): Promise<SavedProof> {
  const { loads, config } = deps;
  const { id, step, mime, key, at } = p;
  const { trip, steps, last, lastRow } = await runningTrip(deps, tx, driverId, f.loadId);
  if (steps.some((s) => s.step === step)) {
    const had = await repo.proofOfStop(tx, f.loadId, f.stop);
    if (had) return { row: had, replayed: true };
  }
  if (!tripStepAllowed(last, step)) throw outOfOrder(last);
  const recordedAt = f.recordedAt ? new Date(f.recordedAt) : null;
  checkDeviceTime(recordedAt, { now: at, assignedAt: trip.assigned_at, previous: lastRow && stepTime(lastRow) });
  const hasPos = f.lat !== undefined && f.lng !== undefined;
  const { distanceKm, flagged } = await geofence(deps, tx, f.loadId, step, f);
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
    recorded_at: recordedAt,
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
    recordedAt,
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
    recordedAt,
    distanceKm,
    flagged,
  });
  const dist = distanceKm === null ? null : round3(distanceKm);
  const times = { at: at.toISOString(), recordedAt: recordedAt?.toISOString() ?? null };
  await loads.event(tx, 'trip.step', f.loadId, trip.shipper_id, null, { step, driverId, ...times, proofId: id, distanceKm: dist, flagged });
  if (flagged)
    await loads.event(tx, 'trip.proof_flagged', f.loadId, trip.shipper_id, null, {
      proofId: id,
      stop: f.stop,
      distanceKm: dist,
      limitKm: config.PROOF_GEOFENCE_KM,
    });
  return { row: proof, replayed: false };
}
