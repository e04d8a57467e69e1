import { isEvent, type DomainEventType, type RateKind } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import type { EventHandler, OutboxEvent } from '../../events/events.service.ts';
import type { RateFacts } from '../../loads/loads.service.ts';
import type { RatesDeps, RateFactsOf } from '../deps.ts';
import * as repo from '../rates.repository.ts';
import {
  addDays,
  bucketOf,
  isOutlier,
  KM_BUCKETS,
  laneKeys,
  OUTLIER_BASELINE_DAYS,
  OUTLIER_BASELINE_MAX,
  perKmOf,
  riyadhDay,
  SAR_BUCKETS,
} from '../rates.shared.ts';

/*
 * The handler (issue 20 "The lane rate index"; docs/rates.md): one rate record per booked load,
 * written by the outbox handler `lane-rates` on load.booked, taken out again by a cancellation
 * after booking; each moves the daily lane aggregates in the same transaction.
 */

/** The event types the index takes (the backfill replays exactly these). */
export const RATE_EVENT_TYPES = ['load.booked', 'load.cancelled', 'load.bayan_cancelled'] as const satisfies readonly DomainEventType[];
/** Load statuses of a booked shipment (a cancellation from one of them takes the record out). */
const BOOKED_STATUSES = new Set(['unassigned', 'assigned', 'pending_bayan']);

/** Kind and source of a booking by how it was booked (docs/rates.md "Kinds"). */
export const KIND_OF: Record<RateFacts['via'], { kind: RateKind; source: repo.RateRecordRow['source'] }> = {
  own_vehicle: { kind: 'contract', source: 'own_vehicle' },
  vendor: { kind: 'contract', source: 'vendor' },
  tender: { kind: 'contract', source: 'tender' },
  offer: { kind: 'spot', source: 'offer' },
  book_now: { kind: 'spot', source: 'book_now' },
};

/** The rate record of a booked load's facts (outlier not yet decided). */
export function recordOf(loadId: string, f: RateFacts, bookedAt: Date, priceSar: number): repo.RateRecordRow {
  const { kind, source } = KIND_OF[f.via];
  return {
    loadId,
    kind,
    source,
    companyId: f.shipperId,
    carrierId: f.carrierId,
    bookedAt,
    bookedOn: riyadhDay(bookedAt),
    originCityId: f.originCityId,
    originRegionId: f.originRegionId,
    destinationCityId: f.destinationCityId,
    destinationRegionId: f.destinationRegionId,
    equipment: f.equipment,
    loadType: f.loadType === 'LTL' ? 'ltl' : 'ftl',
    distanceKm: f.distanceKm,
    weightKg: f.weightKg,
    priceSar,
    perKmSar: perKmOf(priceSar, f.distanceKm),
    outlier: false,
  };
}

/**
 * The ten daily deltas of one record (5 levels × its equipment and '*'), `sign` +1 (added) or −1
 * (cancelled). An outlier moves only the `outliers` count.
 */
export function recordDeltas(r: repo.RateRecordRow, sign: 1 | -1): repo.DailyDelta[] {
  const counted = !r.outlier;
  const s = counted ? sign : 0;
  const histSar = counted ? { [bucketOf(r.priceSar, SAR_BUCKETS)]: sign } : {};
  const histKm = counted && r.perKmSar !== null ? { [bucketOf(r.perKmSar, KM_BUCKETS)]: sign } : {};
  const companies = counted ? { [r.companyId]: sign } : {};
  const out: repo.DailyDelta[] = [];
  for (const k of laneKeys(r))
    for (const equipment of [r.equipment, '*'])
      out.push({
        ...k,
        equipment,
        kind: r.kind,
        day: r.bookedOn,
        records: s,
        sumSar: s * r.priceSar,
        sumSqSar: s * r.priceSar * r.priceSar,
        sumKm: s * r.distanceKm,
        sumPerKm: r.perKmSar === null ? 0 : s * r.perKmSar,
        sumSqPerKm: r.perKmSar === null ? 0 : s * r.perKmSar * r.perKmSar,
        outliers: counted ? 0 : sign,
        histSar,
        histKm,
        companies,
      });
  return out;
}

/** Decide a new record's outlier flag against the lane's stored baseline (the 90 days up to its day). */
async function flagOutlier(tx: DbOrTx, r: repo.RateRecordRow): Promise<repo.RateRecordRow> {
  const baseline = await repo.laneBaseline(tx, r, addDays(r.bookedOn, -OUTLIER_BASELINE_DAYS), r.bookedOn, OUTLIER_BASELINE_MAX);
  return { ...r, outlier: isOutlier(r.perKmSar, baseline) };
}

/**
 * Take one event into the index (idempotent: a record is inserted once and cancelled once, and
 * the aggregates move only then, in the same transaction). load.booked → the load's rate facts
 * through the loads module (null: not booked — nothing); load.cancelled / load.bayan_cancelled
 * from a booked status → cancelled_at set and the record subtracted. An outbox handler: its
 * first parameter is the handler's transaction, and `facts` (the loads module's port) is
 * replaceable in tests.
 */
export async function applyRateEvent(tx: DbOrTx, e: OutboxEvent, facts: RateFactsOf): Promise<void> {
  if (!isEvent(e, ...RATE_EVENT_TYPES)) return;
  const loadId = e.data.loadId;
  if (isEvent(e, 'load.booked')) {
    const f = await facts(tx, loadId);
    if (!f) return;
    const price = e.data.bookedPriceSar !== undefined ? Number(e.data.bookedPriceSar) : Number(f.priceSar);
    if (!(price > 0)) return;
    const r = await flagOutlier(tx, recordOf(loadId, f, e.createdAt, price));
    if (await repo.insertRecord(tx, r)) await repo.addDaily(tx, recordDeltas(r, 1));
    return;
  }
  const from = e.data.status?.from ?? (isEvent(e, 'load.cancelled') ? e.data.previousStatus : undefined);
  if (!from || !BOOKED_STATUSES.has(from)) return;
  const r = await repo.setCancelled(tx, loadId, e.createdAt);
  if (r) await repo.addDaily(tx, recordDeltas(r, -1));
}

/** The outbox consumer that keeps the index (registered in container.ts, after account-record). */
export function laneRatesHandler({ rateFactsOf }: Pick<RatesDeps, 'rateFactsOf'>): EventHandler {
  return {
    name: 'lane-rates',
    handle: (tx, e) => applyRateEvent(tx, e, rateFactsOf),
  };
}
