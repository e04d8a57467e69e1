import { DAYS_TO_PAY_WINDOW, type DaysToPay } from '@masar/shared';
import * as repo from '../trips.repository.ts';
import type { TripsDeps } from '../deps.ts';
import { round1 } from '../trips.shared.ts';

export type DaysToPayDeps = Pick<TripsDeps, 'db'>;

/** A shipper's mean days from delivery to payment received over its newest 50 paid shipments (one decimal; null when none). */
export async function daysToPay(deps: DaysToPayDeps, shipperId: string): Promise<DaysToPay> {
  const r = await repo.daysToPay(deps.db, shipperId, DAYS_TO_PAY_WINDOW);
  return { shipperId, averageDays: r.n > 0 && r.avg_days !== null ? round1(r.avg_days) : null, count: r.n };
}
