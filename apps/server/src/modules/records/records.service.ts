import {
  DAYS_TO_PAY_WINDOW,
  isEvent,
  RECORD_MIN_COMPLETED,
  recordPct,
  type AccountRecord,
  type CarrierRecord,
  type DomainEventType,
  type ShipperRecord,
} from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { replayEvents, type EventHandler, type OutboxEvent } from '../events/events.service.ts';
import { deliveryWindowEnd, pickupWindowEnd, type StopWindows } from '../../lib/stop-windows.ts';
import * as repo from './records.repository.ts';

/*
 * The fact-based record (issue 19; docs/account-record.md): an account's completed shipments,
 * on-time pickup and delivery, cancellations after booking (as carrier and as shipper), the WASL
 * share of its fleet and its days-to-pay — counted from shipment events by the outbox handler
 * `account-record`, never by polling the loads.
 */

/** The event types the record counts (the backfill replays exactly these). */
export const RECORD_EVENT_TYPES = [
  'load.booked',
  'trip.step',
  'load.completed',
  'load.bayan_closed',
  'load.cancelled',
  'load.bayan_cancelled',
  'load.payment_received',
] as const satisfies readonly DomainEventType[];

/** Load statuses of a booked shipment (a cancellation from one of them is a cancellation after booking). */
const BOOKED_STATUSES = new Set(['unassigned', 'assigned', 'pending_bayan']);

/** The stop windows of a shipment (the loads module's `loadStopWindows`; null: no such load), inside the caller's transaction. */
export type StopWindowsOf = (db: DbOrTx, loadId: string) => Promise<StopWindows | null>;

/**
 * What the records module asks of other modules (injected by the container): the loads module's
 * stop windows (the handler) and the fleet module's WASL counts per owner (the reads).
 */
export interface RecordsPorts {
  loadStopWindows: StopWindowsOf;
  fleetWaslCounts(db: DbOrTx, ownerIds: string[]): Promise<Map<string, { vehicles: number; verified: number }>>;
}

/**
 * Count one event into the record (idempotent: each fact of a shipment is set once — see
 * records.repository.ts — so a redelivered or replayed event changes nothing, whatever the order).
 * Own-vehicle shipments (carrier = shipper) and loads never booked are not counted.
 */
export async function applyRecordEvent(tx: DbOrTx, e: OutboxEvent, windows: StopWindowsOf): Promise<void> {
  if (!isEvent(e, ...RECORD_EVENT_TYPES)) return;
  const d = e.data;
  const carrierId = typeof d.carrierId === 'string' ? d.carrierId : null;
  if (!carrierId || carrierId === d.shipperId) return;
  // the shipper's measured days-to-pay, shown on its loads (issue 23) and in its record
  if (isEvent(e, 'load.payment_received')) return repo.refreshDaysToPay(tx, d.shipperId, DAYS_TO_PAY_WINDOW);
  // of the driver's steps only the arrivals at the stops are facts of the record
  if (isEvent(e, 'trip.step') && e.data.step !== 'at_pickup' && e.data.step !== 'at_drop') return;
  await repo.ensureLoad(tx, d.loadId, d.shipperId, carrierId);

  if (isEvent(e, 'trip.step')) {
    const w = await windows(tx, d.loadId);
    if (!w) return;
    const at = new Date(e.data.at);
    if (e.data.step === 'at_pickup') {
      const onTime = at.getTime() <= pickupWindowEnd(w).getTime();
      const p = await repo.setPickupArrival(tx, d.loadId, at, onTime);
      if (p?.carrier_id) await repo.bump(tx, p.carrier_id, { pickups_measured: 1, pickups_on_time: onTime ? 1 : 0 });
    } else {
      const onTime = at.getTime() <= deliveryWindowEnd(w).getTime();
      const p = await repo.setDropArrival(tx, d.loadId, at, onTime);
      if (p?.carrier_id) await repo.bump(tx, p.carrier_id, { deliveries_measured: 1, deliveries_on_time: onTime ? 1 : 0 });
    }
    return;
  }
  if (isEvent(e, 'load.completed', 'load.bayan_closed')) {
    const p = await repo.setCompleted(tx, d.loadId, e.createdAt);
    if (p?.carrier_id) {
      await repo.bump(tx, p.carrier_id, { carrier_completed: 1 });
      await repo.bump(tx, p.shipper_id, { shipper_completed: 1 });
    }
    return;
  }
  if (isEvent(e, 'load.cancelled', 'load.bayan_cancelled')) {
    const from = e.data.status?.from ?? (isEvent(e, 'load.cancelled') ? e.data.previousStatus : undefined);
    if (!from || !BOOKED_STATUSES.has(from)) return;
    // the owner cancels a booked load; either party cancels its Bayan waybill (docs/shipment-lifecycle.md)
    const by = e.type === 'load.cancelled' ? 'shipper' : e.actorId === d.shipperId ? 'shipper' : e.actorId === carrierId ? 'carrier' : null;
    const p = await repo.setCancelled(tx, d.loadId, e.createdAt, by);
    if (p && by === 'shipper') await repo.bump(tx, p.shipper_id, { shipper_cancellations: 1 });
    if (p?.carrier_id && by === 'carrier') await repo.bump(tx, p.carrier_id, { carrier_cancellations: 1 });
  }
}

/** The outbox consumer that keeps the records (registered in container.ts, after the load timeline). */
export function accountRecordHandler(ports: Pick<RecordsPorts, 'loadStopWindows'>): EventHandler {
  return {
    name: 'account-record',
    handle: (tx, e) => applyRecordEvent(tx, e, ports.loadStopWindows),
  };
}

/** Days-to-pay of a shipper as the trips module measures it (DAYS_TO_PAY_WINDOW newest paid shipments). */
export type DaysToPayOf = (shipperId: string) => Promise<{ averageDays: number | null; count: number }>;

/**
 * The records service: reads (by primary key of account_records, the fleet's WASL counts in one
 * grouped index read, days-to-pay only for accounts shown as shippers) and the backfill.
 */
export function createRecordsService(deps: { db: Db; daysToPay: DaysToPayOf } & RecordsPorts) {
  const { db } = deps;

  /**
   * The records of these accounts, by id (every id present; an account without facts is new on
   * Masar). `carriersOnly`: the carrier side alone (`asShipper` null, `newOnMasar` from the carrier
   * side) — what a truck or an offer shows, without a days-to-pay query per account on the page.
   */
  async function of(via: DbOrTx, accountIds: string[], carriersOnly = false): Promise<Map<string, AccountRecord>> {
    const ids = [...new Set(accountIds)];
    const rows = await repo.recordsOf(via, ids);
    const shownAsCarrier = ids.filter((id) => (rows.get(id)?.carrier_completed ?? 0) >= RECORD_MIN_COMPLETED);
    const fleets = await deps.fleetWaslCounts(via, shownAsCarrier);
    const out = new Map<string, AccountRecord>();
    for (const id of ids) {
      const r = rows.get(id);
      const f = fleets.get(id) ?? { vehicles: 0, verified: 0 };
      const asCarrier: CarrierRecord | null =
        r && r.carrier_completed >= RECORD_MIN_COMPLETED
          ? {
              completed: r.carrier_completed,
              onTimePickupPct: recordPct(r.pickups_on_time, r.pickups_measured),
              pickupsMeasured: r.pickups_measured,
              onTimeDeliveryPct: recordPct(r.deliveries_on_time, r.deliveries_measured),
              deliveriesMeasured: r.deliveries_measured,
              cancellationsAfterBooking: r.carrier_cancellations,
              vehicles: f.vehicles,
              waslVerifiedVehicles: f.verified,
              waslVerifiedPct: recordPct(f.verified, f.vehicles),
            }
          : null;
      let asShipper: ShipperRecord | null = null;
      if (r && !carriersOnly && r.shipper_completed >= RECORD_MIN_COMPLETED) {
        const pay = await deps.daysToPay(id);
        asShipper = {
          completed: r.shipper_completed,
          daysToPay: pay.averageDays,
          paidShipments: pay.count,
          cancellationsAfterBooking: r.shipper_cancellations,
        };
      }
      out.set(id, { accountId: id, newOnMasar: !asCarrier && !asShipper, asCarrier, asShipper });
    }
    return out;
  }

  return {
    of,
    /** The carrier side of these accounts' records (trucks, offers: `of(…, carriersOnly)`). */
    carriers: (via: DbOrTx, accountIds: string[]) => of(via, accountIds, true),
    /** GET /accounts/:id/record: NOT_FOUND for an unknown account. */
    async get(accountId: string): Promise<AccountRecord> {
      if (!(await repo.accountExists(db, accountId))) throw new AppError('NOT_FOUND');
      return (await of(db, [accountId])).get(accountId)!;
    },
    /**
     * Build the records from the outbox's history (events published before the handler existed,
     * or already delivered): replays RECORD_EVENT_TYPES through the handler, skipping events it
     * took. Safe to run again and alongside the drain. Returns the events counted in.
     */
    backfill: (batchSize?: number) => replayEvents(db, accountRecordHandler(deps), RECORD_EVENT_TYPES, batchSize),
  };
}

export type RecordsService = ReturnType<typeof createRecordsService>;
