import * as repo from '../billing.repository.ts';
import { reconcile, type ChargeDeps } from '../settlement.ts';

export type ReconcileStaleDeps = ChargeDeps;

/**
 * The `billing.reconcile` job (every minute, issue 22): card checkouts still `processing`
 * after `staleSeconds` lost their request (a live charge has answered or timed out long
 * before): ask the acquirer and settle each, so a crashed checkout neither blocks the next
 * one (CHECKOUT_IN_PROGRESS) nor stays unpaid. Returns how many were settled.
 */
export async function reconcileStale(deps: ReconcileStaleDeps, staleSeconds: number, now = new Date()): Promise<number> {
  let n = 0;
  let failure: unknown;
  for (const { intent, accountType } of await repo.staleProcessingIntents(deps.db, new Date(now.getTime() - staleSeconds * 1000))) {
    try {
      await reconcile(deps, intent, accountType);
      n += 1;
    } catch (err) {
      failure ??= err; // the others are still settled; the job fails (and is retried) after
    }
  }
  if (failure) throw failure;
  return n;
}
