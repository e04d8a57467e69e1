import { isEvent, type EscrowDisputeBody, type EscrowSettleInput } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import type { EventHandler } from '../events/events.service.ts';
import type { EscrowDeps } from './deps.ts';
import * as repo from './escrow.repository.ts';
import { closeOnCancel } from './use-cases/close-on-cancel.ts';
import { disputeEscrow } from './use-cases/dispute-escrow.ts';
import { fundEscrow } from './use-cases/fund-escrow.ts';
import { getEscrow } from './use-cases/get-escrow.ts';
import { openEscrow } from './use-cases/open-escrow.ts';
import { releaseDue, releaseEscrow } from './use-cases/release-escrow.ts';
import { scheduleRelease } from './use-cases/schedule-release.ts';
import { settleEscrow } from './use-cases/settle-escrow.ts';

/**
 * Payment protection (issue 50; docs/billing.md "Payment protection and the ledger"): one
 * escrow per protected load, funded at booking from the shipper's wallet, released to the carrier
 * after the dispute window that follows completion, held by a dispute until the operator settles.
 * Money moves in the ledger (its `post` port) in the transaction of each status change.
 */
export function createEscrowService(deps: EscrowDeps) {
  return {
    get: (user: CurrentUser, loadId: string) => getEscrow(deps, user, loadId),
    fund: (user: CurrentUser, loadId: string) => fundEscrow(deps, user, loadId),
    dispute: (user: CurrentUser, loadId: string, body: EscrowDisputeBody) => disputeEscrow(deps, user, loadId, body),
    settle: (ref: { loadId: string } | { escrowId: string }, input: EscrowSettleInput) => settleEscrow(deps, ref, input),
    release: (id: string) => releaseEscrow(deps, id),
    releaseDue: () => releaseDue(deps),
    onBooked: (tx: DbOrTx, loadId: string) => openEscrow(deps, tx, loadId),
    onCompleted: (tx: DbOrTx, loadId: string) => scheduleRelease(deps, tx, loadId),
    onCancelled: (tx: DbOrTx, loadId: string) => closeOnCancel(deps, tx, loadId),
    /** The release time of a load's escrow while it is scheduled (to queue its job after commit). */
    scheduledRelease: async (loadId: string) => {
      const e = await repo.escrowOfLoad(deps.db, loadId);
      return e?.status === 'release_scheduled' && e.releaseAt ? { id: e.id, at: e.releaseAt } : null;
    },
  };
}
export type EscrowService = ReturnType<typeof createEscrowService>;

/**
 * The outbox consumer of payment protection: load.booked opens (and funds) the escrow,
 * load.completed schedules its release, load.cancelled refunds or closes it — each idempotent
 * (a redelivery changes nothing). After the drain commits, a scheduled release's job is queued
 * for its time (the minute sweep `escrow.sweep` releases it if that job is lost).
 */
export function escrowHandler(svc: EscrowService, scheduleRelease: EscrowDeps['scheduleRelease']): EventHandler {
  return {
    name: 'escrow',
    async handle(tx, e) {
      if (isEvent(e, 'load.booked')) await svc.onBooked(tx, e.aggregateId);
      else if (isEvent(e, 'load.completed')) await svc.onCompleted(tx, e.aggregateId);
      else if (isEvent(e, 'load.cancelled')) await svc.onCancelled(tx, e.aggregateId);
    },
    async afterCommit(events) {
      for (const e of events) {
        if (e.type !== 'load.completed') continue;
        const s = await svc.scheduledRelease(e.aggregateId);
        if (s) await scheduleRelease(s.id, s.at);
      }
    },
  };
}
