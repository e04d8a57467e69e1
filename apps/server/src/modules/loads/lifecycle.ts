import {
  loadTransition,
  LOAD_ACTION_EVENT,
  SHIPMENT_TYPE,
  type DomainEventInputData,
  type EventInput,
  type ShipmentEventType,
  type StatusChangeEventType,
  type ErrorCode,
  type LoadAction,
  type LoadStatus,
} from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { publish, publishMany } from '../events/events.service.ts';
import { AppError } from '../../lib/errors.ts';
import * as authoring from './authoring.repository.ts';
import * as repo from './loads.repository.ts';
import * as lifecycleRepo from './lifecycle.repository.ts';

export type { TransitionSet } from './lifecycle.repository.ts';

/** A load event; `data.shipperId` names the load's owner (webhooks deliver to the parties). `data` is checked against K's payload at compile time (EventInput). */
export const loadEvent = <K extends ShipmentEventType>(
  type: K,
  loadId: string,
  shipperId: string,
  actorId: string | null,
  data: DomainEventInputData<K>,
): EventInput<K> => ({
  type,
  aggregateType: 'load',
  aggregateId: loadId,
  actorId,
  data: { shipperId, ...data },
});

/** What every status-change event carries beside the caller's data: `status {from, to}` and the older `from`/`to` the timeline reads. */
const statusData = (from: LoadStatus, to: LoadStatus, data: Record<string, unknown> = {}) => ({ from, to, ...data, status: { from, to } });

/**
 * THE status change of a load (issue 18: one lifecycle). Inside the caller's transaction:
 * 1. reads the load FOR UPDATE (NOT_FOUND when absent or deleted); a posted load past its expiry
 *    counts as `expired` (the read-time rule, kept as a guard until the expiry job flips the row);
 * 2. asks the table of packages/shared rules/lifecycle.ts (`loadTransition`) where `action` leads
 *    from there: refused → `refuse` (INVALID_TRANSITION by default), nothing written;
 * 3. writes `update loads set status = $to, …set where id = $id and status = $from` (and still before
 *    its expiry when leaving `posted`): no row → STATUS_CHANGED (409), nothing published;
 * 4. publishes the action's event (`LOAD_ACTION_EVENT`) in the same transaction with `data` plus
 *    `status: { from, to }` (and the older `from`/`to` fields the timeline reads); an action that
 *    completes the shipment by another event (bayan_closed) also publishes `load.completed`
 *    `{ via: action, status }` after it, so every completion publishes load.completed (issue 48).
 * Returns the new status. The caller bumps the board versions of the load's place when the board
 * changes (repo.bumpBoardLoads, the last statement of its transaction).
 */
export async function transition(
  tx: DbOrTx,
  loadId: string,
  action: LoadAction,
  actorId: string | null,
  data: Record<string, unknown> = {},
  set: lifecycleRepo.TransitionSet = {},
  refuse: ErrorCode = 'INVALID_TRANSITION',
): Promise<LoadStatus> {
  const s = await repo.loadState(tx, loadId, 'update');
  if (!s || s.deleted) throw new AppError('NOT_FOUND');
  const pastExpiry = s.status === 'posted' && s.expired;
  // the job's own action sees the row as it is; everyone else sees a posted load past its expiry as expired
  const from = (pastExpiry && action !== 'expire' ? 'expired' : s.status) as LoadStatus;
  const to = action === 'expire' && !pastExpiry ? null : loadTransition(from, action);
  if (!to) throw new AppError(refuse);
  const onBoard = s.status === 'posted' && action !== 'expire' && !pastExpiry;
  if (!(await lifecycleRepo.transitionRow(tx, loadId, s.status, to, set, onBoard))) throw new AppError('STATUS_CHANGED');
  await publish(tx, loadEvent(LOAD_ACTION_EVENT[action], loadId, s.shipper_id, actorId, statusData(from, to, data)));
  // issue 48: load.completed is THE fact "the shipment completed", by any path: closing its Bayan
  // (load.bayan_closed) publishes it too, right after, with `via` naming the action
  if (to === 'completed' && LOAD_ACTION_EVENT[action] !== 'load.completed')
    await publish(tx, loadEvent('load.completed', loadId, s.shipper_id, actorId, statusData(from, to, { via: action })));
  return to;
}

/**
 * The loads module's lifecycle as other modules use it (issue 6: one owner per table): the offers
 * module books through it, assignment, Bayan and the driver trip move a booked shipment through
 * it. `stateForOffer` locks the load row first ('update' while answering, 'share' while bidding),
 * so racing answers on one load queue up, never deadlock.
 */
export const loadLifecycle = {
  transition,
  stateForOffer: async (tx: DbOrTx, loadId: string, lock: 'share' | 'update' | 'none') => {
    const s = await repo.loadState(tx, loadId, lock);
    return s
      ? {
          id: s.id,
          shipper_id: s.shipper_id,
          carrier_id: s.carrier_id,
          status: s.status,
          expired: s.expired,
          deleted: s.deleted,
          book_now: s.book_now,
          book_now_for: s.book_now_for,
          price: s.price,
        }
      : null;
  },
  /**
   * Book a load on an accepted offer (lifecycle 'book': posted → unassigned, carrier and price
   * set), publishing load.booked { offerId, carrierId, bookedPriceSar, status }. False when the
   * load is no longer open (booked by someone else, unposted, expired, cancelled): nothing written.
   */
  async book(tx: DbOrTx, loadId: string, carrierId: string, priceSar: string, actorId: string | null = null, offerId?: string): Promise<boolean> {
    try {
      await transition(
        tx,
        loadId,
        'book',
        actorId,
        { offerId, carrierId, bookedPriceSar: priceSar },
        { carrierId, bookedPrice: priceSar, bookedAt: new Date() },
      );
      return true;
    } catch (e) {
      if (e instanceof AppError && (e.code === 'INVALID_TRANSITION' || e.code === 'STATUS_CHANGED' || e.code === 'NOT_FOUND')) return false;
      throw e;
    }
  },
  /**
   * Post an unposted load to the board for a closed tender (issue 19 "Tendering": post to the
   * board on close) through transition() (load.posted with `data`). False, nothing written, when
   * the load is no longer unposted (posted already, booked, cancelled, deleted). The caller bumps
   * the board versions (boardChanged) as the last statement of its transaction.
   */
  async postToBoard(tx: DbOrTx, loadId: string, actorId: string | null, data: Record<string, unknown> = {}): Promise<boolean> {
    const s = await repo.loadState(tx, loadId, 'update');
    if (!s || s.deleted || s.status !== 'unposted') return false;
    await transition(tx, loadId, 'post', actorId, data, { postedAt: new Date() });
    return true;
  },
  /** The board changed (the load was booked): bump its place's versions, the last statement of the transaction. */
  boardChanged: (tx: DbOrTx, loadId: string) => repo.bumpBoardLoads(tx, [loadId]),
  /** A booked shipment for the trip modules (assignment, Bayan, driver trip); locked FOR UPDATE when `lock`. */
  trip: (db: DbOrTx, loadId: string, lock = false) => repo.tripLoad(db, loadId, lock),
  /** The driver completed the job (proof of drop): record the delivery time (days-to-pay counts from it). No status change. */
  async markDelivered(tx: DbOrTx, loadId: string, at: Date): Promise<void> {
    await authoring.updateLoadRow(tx, loadId, { deliveredAt: at });
  },
  /** The awarded carrier was paid: record the date (the shipper's average days-to-pay). No status change: a completed load stays completed. */
  async markPaymentReceived(tx: DbOrTx, loadId: string, at: Date): Promise<void> {
    await authoring.updateLoadRow(tx, loadId, { paymentReceivedAt: at });
  },
  /**
   * May `userId` bid on the load? Marketplace shipments: anyone (the offers module checks the
   * rest); vendor shipments: only the accounts of the chosen vendors; own-vehicle: nobody.
   */
  async mayBid(tx: DbOrTx, loadId: string, userId: string): Promise<boolean> {
    const s = await repo.loadState(tx, loadId, 'none');
    if (!s) return false;
    if (s.shipment_type === SHIPMENT_TYPE.vendor) return repo.isLoadVendor(tx, loadId, userId);
    return s.shipment_type !== SHIPMENT_TYPE.ownVehicle;
  },
  /**
   * Publish a load event that is not a status change (a trip step, a flagged proof, payment
   * received, a failed Bayan). The status-change events go through transition() only. `data` is
   * checked against the type's payload at compile time (EventInput).
   */
  event: <K extends Exclude<ShipmentEventType, StatusChangeEventType>>(
    tx: DbOrTx,
    type: K,
    loadId: string,
    shipperId: string,
    actorId: string | null,
    data: DomainEventInputData<K>,
  ) => publish(tx, loadEvent(type, loadId, shipperId, actorId, data)),
};

/**
 * The expiry job's batch (issue 24): posted loads past their expiry become `expired` as the
 * lifecycle table says (`loadTransition('posted', 'expire')`), with a load.expired event each
 * (statusData, as transition() publishes it) in the caller's transaction. A batch is a
 * few statements — find and lock what is due, one conditional update, the events' parties read
 * and inserted together (publishMany) — instead of a few per load. Returns the ids that expired.
 */
export async function expireBatch(tx: DbOrTx, limit: number): Promise<string[]> {
  const due = await lifecycleRepo.dueForExpiry(tx, limit);
  if (!due.length) return [];
  const from: LoadStatus = 'posted';
  const to = loadTransition(from, 'expire');
  if (!to) throw new AppError('INVALID_TRANSITION');
  const moved = await lifecycleRepo.transitionRows(tx, due, from, to);
  await publishMany(
    tx,
    moved.map((r) => loadEvent(LOAD_ACTION_EVENT.expire, r.id, r.shipper_id, null, statusData(from, to))),
  );
  return moved.map((r) => r.id);
}
