import type { LaneRateHistoryQuery, LaneRateQuery } from '@masar/shared';
import type { Db } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import type { RatesDeps, RateFactsOf } from './deps.ts';
import * as repo from './rates.repository.ts';
import { backfillRateIndex } from './use-cases/backfill-rate-index.ts';
import { laneDailySeries, type LaneSeriesQuery } from './use-cases/lane-daily-series.ts';
import { laneRateHistory } from './use-cases/lane-rate-history.ts';
import { laneRate } from './use-cases/lane-rate.ts';
import { recordBulk, type BulkRateRecord } from './use-cases/record-bulk.ts';

/*
 * The lane rate index (issue 20 "The lane rate index"; docs/rates.md). The rules live one use case
 * per file in use-cases/ (the handler in apply-rate-event.ts) and what they share in
 * rates.shared.ts; this file wires them and re-exports what the container, the seed and the
 * tests import from here.
 */

export {
  addDays,
  BUCKET_RATIO,
  bucketOf,
  enoughSample,
  isOutlier,
  KM_BUCKETS,
  laneKeys,
  MAD_SCALE,
  OUTLIER_BASELINE_DAYS,
  OUTLIER_BASELINE_MAX,
  OUTLIER_MADS,
  OUTLIER_MIN_BASELINE,
  OUTLIER_MIN_SPREAD,
  quantileOf,
  riyadhDay,
  SAR_BUCKETS,
} from './rates.shared.ts';
export { applyRateEvent, KIND_OF, laneRatesHandler, RATE_EVENT_TYPES, recordDeltas, recordOf } from './use-cases/apply-rate-event.ts';
export type { BulkRateRecord, LaneSeriesQuery };

/**
 * The rates service: the index query (with widening), the 13-month history, the forecast's daily
 * series, the backfill and the bulk load of the demo seed.
 */
export function createRatesService(deps: { db: Db; readDb?: Db; rateFactsOf: RateFactsOf }) {
  const d: RatesDeps = { db: deps.db, readDb: deps.readDb ?? deps.db, rateFactsOf: deps.rateFactsOf };
  return {
    /** GET /rates/lane (use-cases/lane-rate.ts). */
    laneRate: (viewer: Pick<CurrentUser, 'id'>, q: LaneRateQuery, today?: string) => laneRate(d, viewer, q, today),
    /** GET /rates/lane/history (use-cases/lane-rate-history.ts). */
    history: (viewer: Pick<CurrentUser, 'id'>, q: LaneRateHistoryQuery, today?: string) => laneRateHistory(d, viewer, q, today),
    /** The forecast's daily series (use-cases/lane-daily-series.ts). */
    laneDailySeries: (q: LaneSeriesQuery) => laneDailySeries(d, q),
    /** Load many bookings at once, the demo seed's history (use-cases/record-bulk.ts). */
    recordBulk: (input: BulkRateRecord[]) => recordBulk(d, input),
    /** Whether a company has any rate record (the demo seed asks before loading its history again). */
    companyHasRecords: (companyId: string) => repo.companyHasRecords(d.db, companyId),
    /** Build the index from the outbox's history (use-cases/backfill-rate-index.ts). */
    backfill: (batchSize?: number) => backfillRateIndex(d, batchSize),
  };
}

export type RatesService = ReturnType<typeof createRatesService>;
