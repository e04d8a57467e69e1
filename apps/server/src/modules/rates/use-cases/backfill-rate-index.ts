import { replayEvents } from '../../events/events.service.ts';
import type { RatesDeps } from '../deps.ts';
import { laneRatesHandler, RATE_EVENT_TYPES } from './apply-rate-event.ts';

export type BackfillRateIndexDeps = Pick<RatesDeps, 'db' | 'rateFactsOf'>;

/**
 * Build the index from the outbox's history (bookings before the handler existed): replays
 * RATE_EVENT_TYPES through the handler, skipping events it took. Safe to run again.
 */
export function backfillRateIndex(deps: BackfillRateIndexDeps, batchSize?: number) {
  return replayEvents(deps.db, laneRatesHandler(deps), RATE_EVENT_TYPES, batchSize);
}
