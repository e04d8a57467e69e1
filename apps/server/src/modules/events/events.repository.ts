import { sql } from 'drizzle-orm';
import type { DomainEventAggregate, DomainEventType } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { outboxEvents } from '../../db/schema/index.ts';
import { queryRows } from '../../lib/sql.ts';

/** An event as written to the outbox: publish's input with its payload parsed (parties added). */
export interface NewOutboxEvent {
  type: DomainEventType;
  aggregateType: DomainEventAggregate;
  aggregateId: string;
  actorId: string | null;
  data: Record<string, unknown>;
}

/** Append one event to the outbox (inside the caller's transaction). */
export async function insertOutboxEvent(tx: DbOrTx, id: string, e: NewOutboxEvent): Promise<void> {
  await tx.insert(outboxEvents).values({ id, type: e.type, aggregateType: e.aggregateType, aggregateId: e.aggregateId, actorId: e.actorId, data: e.data });
}

/** Append many events in one statement per 200 (publishMany), in the given order (their seq follows it). */
export async function insertOutboxEvents(tx: DbOrTx, rows: { id: string; e: NewOutboxEvent }[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200)
    await tx
      .insert(outboxEvents)
      .values(
        rows
          .slice(i, i + 200)
          .map(({ id, e }) => ({ id, type: e.type, aggregateType: e.aggregateType, aggregateId: e.aggregateId, actorId: e.actorId, data: e.data })),
      );
}

/** The channel a publishing transaction notifies (delivered at its commit) to wake the drain. */
export const OUTBOX_CHANNEL = 'masar_outbox';
/** NOTIFY the drain; PostgreSQL (and PGlite) deliver it when the transaction commits, never on rollback. */
export async function notifyOutbox(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
}

/** The parties of a load, as publish names them in every shipment event. */
export interface LoadParties {
  reference_id: string;
  shipper_id: string;
  carrier_id: string | null;
  shipper_type: number;
  carrier_type: number | null;
  vendor_id: string | null;
  vehicle_id: string | null;
  driver_id: string | null;
  trailer_id: string | null;
}
/** Read in the publishing transaction (sees its own uncommitted writes, e.g. a booking). */
export async function loadParties(tx: DbOrTx, loadId: string): Promise<LoadParties | null> {
  const [r] = await queryRows<LoadParties>(
    tx,
    sql`select l.reference_id, l.shipper_id, l.carrier_id, l.vehicle_id, l.driver_id, l.trailer_id, su.account_type as shipper_type, cu.account_type as carrier_type,
          (select lv.vendor_id from load_vendors lv where lv.load_id = l.id and lv.user_id = l.carrier_id limit 1) as vendor_id
        from loads l join users su on su.id = l.shipper_id left join users cu on cu.id = l.carrier_id
        where l.id = ${loadId}`,
  );
  return r ?? null;
}

/** loadParties of many loads in one round trip (publishMany), by load id. */
export async function loadPartiesMany(tx: DbOrTx, loadIds: string[]): Promise<Map<string, LoadParties>> {
  if (!loadIds.length) return new Map();
  const rows = await queryRows<LoadParties & { id: string }>(
    tx,
    sql`select l.id, l.reference_id, l.shipper_id, l.carrier_id, l.vehicle_id, l.driver_id, l.trailer_id, su.account_type as shipper_type, cu.account_type as carrier_type,
          (select lv.vendor_id from load_vendors lv where lv.load_id = l.id and lv.user_id = l.carrier_id limit 1) as vendor_id
        from loads l join users su on su.id = l.shipper_id left join users cu on cu.id = l.carrier_id
        where l.id = any(${`{${loadIds.join(',')}}`}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** The account type of each user (the broker party of an offer event). */
export async function accountTypeOf(tx: DbOrTx, userId: string): Promise<number | null> {
  const [r] = await queryRows<{ account_type: number }>(tx, sql`select account_type from users where id = ${userId}`);
  return r?.account_type ?? null;
}

/** Active team members of these accounts with their role (recipients). */
export async function teamMembersOf(tx: DbOrTx, ownerIds: string[]): Promise<{ owner_id: string; member_user_id: string; role: string }[]> {
  if (!ownerIds.length) return [];
  return queryRows(
    tx,
    sql`select owner_id, member_user_id, role from team_members
        where owner_id = any(${`{${ownerIds.join(',')}}`}::uuid[]) and status = 'active' and member_user_id is not null and removed_at is null`,
  );
}

/** An event as the drain hands it to handlers. */
export interface OutboxEvent {
  id: string;
  seq: number;
  type: DomainEventType;
  aggregateType: string;
  aggregateId: string;
  actorId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * One drainer at a time across instances: a transaction-scoped advisory lock (released at
 * commit or rollback, so a killed drainer frees it with its connection).
 */
export async function tryLockDrain(tx: DbOrTx): Promise<boolean> {
  const [r] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(hashtext('masar.outbox.drain')) as ok`);
  return r.ok;
}

/** The oldest undelivered events, in publish order (partial index outbox_events_undelivered_idx). */
export async function undeliveredEvents(tx: DbOrTx, limit: number): Promise<OutboxEvent[]> {
  const rows = await queryRows<{
    id: string;
    seq: string | number;
    type: DomainEventType;
    aggregate_type: string;
    aggregate_id: string;
    actor_id: string | null;
    data: Record<string, unknown>;
    created_at: Date | string;
  }>(
    tx,
    sql`select id, seq, type, aggregate_type, aggregate_id, actor_id, data, created_at from outbox_events where delivered_at is null order by seq limit ${limit}`,
  );
  return rows.map((r) => ({
    id: r.id,
    seq: Number(r.seq),
    type: r.type,
    aggregateType: r.aggregate_type,
    aggregateId: r.aggregate_id,
    actorId: r.actor_id,
    data: r.data,
    createdAt: new Date(r.created_at),
  }));
}

/** Events of `types` after `afterSeq`, in publish order, delivered or not (a handler's replay). Keyset on the unique seq. */
export async function eventsAfter(tx: DbOrTx, afterSeq: number, types: readonly string[], limit: number): Promise<OutboxEvent[]> {
  const rows = await queryRows<{
    id: string;
    seq: string | number;
    type: DomainEventType;
    aggregate_type: string;
    aggregate_id: string;
    actor_id: string | null;
    data: Record<string, unknown>;
    created_at: Date | string;
  }>(
    tx,
    sql`select id, seq, type, aggregate_type, aggregate_id, actor_id, data, created_at from outbox_events
        where seq > ${afterSeq} and type = any(${`{${types.join(',')}}`}::text[]) order by seq limit ${limit}`,
  );
  return rows.map((r) => ({
    id: r.id,
    seq: Number(r.seq),
    type: r.type,
    aggregateType: r.aggregate_type,
    aggregateId: r.aggregate_id,
    actorId: r.actor_id,
    data: r.data,
    createdAt: new Date(r.created_at),
  }));
}

/** Handlers that already took each of these events: `${handler}|${eventId}`. */
export async function deliveredPairs(tx: DbOrTx, eventIds: string[]): Promise<Set<string>> {
  if (!eventIds.length) return new Set();
  const rows = await queryRows<{ handler: string; event_id: string }>(
    tx,
    sql`select handler, event_id from outbox_deliveries where event_id = any(${`{${eventIds.join(',')}}`}::uuid[])`,
  );
  return new Set(rows.map((r) => `${r.handler}|${r.event_id}`));
}

export async function recordDelivery(tx: DbOrTx, handler: string, eventId: string): Promise<void> {
  await tx.execute(sql`insert into outbox_deliveries (handler, event_id) values (${handler}, ${eventId}) on conflict do nothing`);
}

export async function markEventsDelivered(tx: DbOrTx, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await tx.execute(sql`update outbox_events set delivered_at = now() where id = any(${`{${ids.join(',')}}`}::uuid[])`);
}

/** The timeline handler's write: idempotent by event id. */
export async function insertTimelineEntry(tx: DbOrTx, e: OutboxEvent): Promise<void> {
  await tx.execute(
    sql`insert into load_timeline (event_id, load_id, type, actor_id, data, at)
        values (${e.id}, ${e.aggregateId}, ${e.type}, ${e.actorId}, ${JSON.stringify(e.data)}::jsonb, ${e.createdAt})
        on conflict (event_id) do nothing`,
  );
}

export interface TimelineRow {
  event_id: string;
  type: DomainEventType;
  actor_id: string | null;
  actor_company: string | null;
  data: Record<string, unknown>;
  at: Date | string;
}

/** A load's timeline, oldest first (index load_timeline_load_idx). */
export async function timelineOf(db: DbOrTx, loadId: string, limit: number): Promise<TimelineRow[]> {
  return queryRows<TimelineRow>(
    db,
    sql`select t.event_id, t.type, t.actor_id, u.company_name as actor_company, t.data, t.at
        from load_timeline t left join users u on u.id = t.actor_id
        where t.load_id = ${loadId} order by t.at, t.event_id limit ${limit}`,
  );
}
