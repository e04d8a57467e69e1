import { ACCOUNT_TYPE, DOMAIN_EVENTS, type DomainEventData, type DomainEventType, type EventInput, type LoadTimelineEntry } from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './events.repository.ts';

export type { OutboxEvent } from './events.repository.ts';

/**
 * An outbox event of type K as a handler reads it: `data` is K's payload as publish parsed it
 * (`DomainEventData<K>`). `isEvent(e, K, …)` (packages/shared) narrows an `OutboxEvent` to it.
 */
export type EventOf<K extends DomainEventType = DomainEventType> = K extends DomainEventType
  ? Omit<repo.OutboxEvent, 'type' | 'data'> & { type: K; data: DomainEventData<K> }
  : never;

/**
 * Wake-ups after a publish, in process. Publish registers the wake on the transaction's
 * NOTIFY (delivered at commit, on PostgreSQL and PGlite alike; jobs/definitions.ts listens);
 * these listeners are the in-process path for callers that want a hint too (tests).
 */
const publishListeners = new Set<() => void>();
export function onPublish(fn: () => void): () => void {
  publishListeners.add(fn);
  return () => publishListeners.delete(fn);
}

/**
 * The parties of a load event, computed here from the load row in the publishing transaction,
 * so no call site can forget them: loadId, referenceId, shipperId, carrierId (booked),
 * brokerId (the carrier — else the shipper — when it is a broker account), vendorId (the
 * carrier was one of the shipper's chosen vendors); for load.assigned the vehicle, driver and
 * trailer of the row. A `carrierId` given by the call site (the
 * bidder of an offer event) wins over the load's (still empty before booking). `from`/`to` of a
 * transition become `status: {from, to}`.
 */
async function withParties(tx: DbOrTx, e: repo.NewOutboxEvent): Promise<Record<string, unknown>> {
  if (e.aggregateType !== 'load') return nameParties(e, null, null);
  const p = await repo.loadParties(tx, e.aggregateId);
  const carrierId = typeof e.data.carrierId === 'string' ? e.data.carrierId : p?.carrier_id;
  const carrierType = !p ? null : carrierId === p.carrier_id ? p.carrier_type : carrierId ? await repo.accountTypeOf(tx, carrierId) : null;
  return nameParties(e, p, carrierType);
}

/** The payload with its parties (see withParties): `p` the load's parties, `carrierType` the account type of the event's carrier. */
function nameParties(e: repo.NewOutboxEvent, p: repo.LoadParties | null, carrierType: number | null): Record<string, unknown> {
  const data: Record<string, unknown> = { ...e.data };
  if (!data.status && typeof data.from === 'string' && typeof data.to === 'string') data.status = { from: data.from, to: data.to };
  if (e.aggregateType !== 'load' || !p) return data;
  const carrierId = typeof data.carrierId === 'string' ? data.carrierId : p.carrier_id;
  const brokerId = carrierType === ACCOUNT_TYPE.broker ? carrierId : p.shipper_type === ACCOUNT_TYPE.broker ? p.shipper_id : null;
  // the truck of an assignment is on the row the transition just wrote
  const truck = e.type === 'load.assigned' ? { vehicleId: p.vehicle_id, driverId: p.driver_id, trailerId: p.trailer_id } : {};
  return {
    ...truck,
    ...data,
    loadId: e.aggregateId,
    referenceId: p.reference_id,
    shipperId: p.shipper_id,
    ...(carrierId ? { carrierId } : {}),
    ...(brokerId ? { brokerId } : {}),
    ...(p.vendor_id && carrierId === p.carrier_id ? { vendorId: p.vendor_id } : {}),
  };
}

/** Check `data` against the type's schema: the parsed payload, or EventPayloadError. */
function parsePayload(type: DomainEventType, data: Record<string, unknown>): Record<string, unknown> {
  const spec = DOMAIN_EVENTS[type];
  if (!spec) throw new EventPayloadError(String(type), [{ message: 'unknown event type' }]);
  const parsed = spec.schema.safeParse(data);
  if (!parsed.success) throw new EventPayloadError(type, parsed.error.issues);
  return parsed.data;
}

/**
 * Publish a domain event: call it with the transaction that made the change, so the event is
 * written if and only if the change commits (DESIGN §3). Returns the event id.
 *
 * Typed at compile time (`EventInput<K>`, packages/shared events.ts): `type` must be an event
 * type, `aggregateType` the aggregate DOMAIN_EVENTS names for it, and `data` that type's payload
 * (`EventMap[K]`: its schema's input, without fields it does not name, the parties publish adds
 * optional) — a missing or mistyped field, or a field of another event, does not compile. When
 * `type` is a union (a lifecycle's action → event table), `data` is checked against what all
 * those events require. Then at run time, as defence in depth: load events get their parties
 * added (withParties) and the payload must parse with its type's schema — else EVENT_INVALID
 * (500: a programming error, the transaction rolls back). The drain is woken at commit by
 * NOTIFY; no handler runs inside the request.
 */
export async function publish<K extends DomainEventType>(tx: DbOrTx, event: EventInput<K>): Promise<string> {
  const e: repo.NewOutboxEvent = event;
  if (!DOMAIN_EVENTS[e.type]) throw new EventPayloadError(String(e.type), [{ message: 'unknown event type' }]);
  const data = parsePayload(e.type, await withParties(tx, e));
  const id = newId();
  await repo.insertOutboxEvent(tx, id, { ...e, data });
  await repo.notifyOutbox(tx);
  for (const fn of publishListeners) fn();
  return id;
}

/**
 * Publish many events at once, in this order (a bulk writer such as the demo seed, which writes a
 * few hundred loads in one statement and must publish what each load went through): exactly what
 * `publish` does for each (each event typed at compile time as publish types it: `EventInput` of
 * its own `type`; parties added, payload refused when it does not parse, same transaction), with
 * the parties read in one query and the rows written in batches. Returns the ids.
 */
export async function publishMany<const T extends readonly DomainEventType[]>(tx: DbOrTx, events: { [I in keyof T]: EventInput<T[I]> }): Promise<string[]> {
  const list: readonly repo.NewOutboxEvent[] = events;
  if (!list.length) return [];
  const loadIds = [...new Set(list.filter((e) => e.aggregateType === 'load').map((e) => e.aggregateId))];
  const parties = await repo.loadPartiesMany(tx, loadIds);
  const types = new Map<string, number | null>();
  const rows = [];
  for (const e of list) {
    const p = e.aggregateType === 'load' ? (parties.get(e.aggregateId) ?? null) : null;
    const carrierId = typeof e.data.carrierId === 'string' ? e.data.carrierId : p?.carrier_id;
    let carrierType: number | null = null;
    if (p && carrierId === p.carrier_id) carrierType = p.carrier_type;
    else if (p && carrierId) {
      if (!types.has(carrierId)) types.set(carrierId, await repo.accountTypeOf(tx, carrierId));
      carrierType = types.get(carrierId) ?? null;
    }
    rows.push({ id: newId(), e: { ...e, data: parsePayload(e.type, nameParties(e, p, carrierType)) } });
  }
  await repo.insertOutboxEvents(tx, rows);
  await repo.notifyOutbox(tx);
  for (const fn of publishListeners) fn();
  return rows.map((r) => r.id);
}

/** A payload that does not parse with its schema: refused at publish (a bug in the caller). */
export class EventPayloadError extends Error {
  readonly type: string;
  readonly issues: unknown[];
  constructor(type: string, issues: unknown[]) {
    super(`event ${type}: payload does not match its schema: ${JSON.stringify(issues).slice(0, 500)}`);
    this.type = type;
    this.issues = issues;
    this.name = 'EventPayloadError';
  }
}

/**
 * An event handler. `handle` runs inside the drain's transaction (in a savepoint); it must be
 * idempotent — delivery is at least once: a drainer killed after `handle` but before its commit
 * hands the event over again.
 */
export interface EventHandler {
  name: string;
  handle(tx: DbOrTx, event: repo.OutboxEvent): Promise<void>;
  /**
   * After the drain's transaction commits: the events this handler took in it, in order. For
   * side effects that must not be seen before the data is (the real-time hints of issue 21). At
   * most once: a failure here is the handler's to log, and the events stay taken.
   */
  afterCommit?(events: repo.OutboxEvent[]): Promise<void>;
}

/** The first handler: the audit timeline of a load (who did what, when), keyed by event id. */
export const timelineHandler: EventHandler = {
  name: 'load-timeline',
  async handle(tx, e) {
    if (e.aggregateType === 'load') await repo.insertTimelineEntry(tx, e);
  },
};

/**
 * Deliver the outbox (issue 6): one drainer at a time across instances (advisory lock), events in
 * publish order, each to every handler that has not taken it yet. A handler that fails stops the
 * batch there (later events wait, so per-load order holds) and is retried on the next tick.
 * Returns how many events were completed.
 */
export function createEventDelivery(opts: { db: Db; handlers: EventHandler[]; batchSize?: number; log?: { error(o: unknown, m: string): void } }) {
  const { db, handlers } = opts;
  return {
    async drainOnce(): Promise<number> {
      const taken = new Map<EventHandler, repo.OutboxEvent[]>();
      const n = await db.transaction(async (tx) => {
        if (!(await repo.tryLockDrain(tx))) return 0;
        const events = await repo.undeliveredEvents(tx, opts.batchSize ?? 200);
        const done = await repo.deliveredPairs(
          tx,
          events.map((e) => e.id),
        );
        const completed: string[] = [];
        for (const e of events) {
          let ok = true;
          for (const h of handlers) {
            if (done.has(`${h.name}|${e.id}`)) continue;
            try {
              await tx.transaction(async (sp) => {
                await h.handle(sp, e);
                await repo.recordDelivery(sp, h.name, e.id);
              });
              if (h.afterCommit) {
                const list = taken.get(h) ?? [];
                list.push(e);
                taken.set(h, list);
              }
            } catch (err) {
              opts.log?.error({ err, event: e.id, handler: h.name }, 'events: handler failed; will retry');
              ok = false;
              break;
            }
          }
          if (!ok) break;
          completed.push(e.id);
        }
        await repo.markEventsDelivered(tx, completed);
        return completed.length;
      });
      for (const [h, events] of taken) {
        try {
          await h.afterCommit!(events);
        } catch (err) {
          opts.log?.error({ err, handler: h.name }, 'events: after-commit step failed');
        }
      }
      return n;
    },
    /** Drain until nothing is left (tests, shutdown). */
    async drainAll(): Promise<number> {
      let total = 0;
      for (let n = await this.drainOnce(); n > 0; n = await this.drainOnce()) total += n;
      return total;
    },
  };
}

/**
 * Hand the outbox's past events of `types` to one handler, in publish order, skipping those it
 * already took (outbox_deliveries) and recording the others as taken in the same savepoint as
 * the handling, as the drain does: a backfill of a new consumer (the fact-based record) that may
 * run again, or alongside the drain, without counting an event twice. One transaction per
 * `batchSize` events. Returns how many events the handler took.
 */
export async function replayEvents(db: Db, handler: EventHandler, types: readonly DomainEventType[], batchSize = 500): Promise<number> {
  let after = 0;
  let taken = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      const events = await repo.eventsAfter(tx, after, types, batchSize);
      if (!events.length) return -1;
      const done = await repo.deliveredPairs(
        tx,
        events.map((e) => e.id),
      );
      let count = 0;
      for (const e of events) {
        if (done.has(`${handler.name}|${e.id}`)) continue;
        await tx.transaction(async (sp) => {
          await handler.handle(sp, e);
          await repo.recordDelivery(sp, handler.name, e.id);
        });
        count++;
      }
      after = events[events.length - 1].seq;
      return count;
    });
    if (n < 0) return taken;
    taken += n;
  }
}

/** A load's timeline, oldest first (the caller checks who may see it). */
export async function loadTimeline(db: DbOrTx, loadId: string): Promise<LoadTimelineEntry[]> {
  const rows = await repo.timelineOf(db, loadId, 500);
  return rows.map((r) => ({
    eventId: r.event_id,
    type: r.type,
    actorId: r.actor_id,
    actorCompany: r.actor_company,
    data: r.data,
    at: new Date(r.at).toISOString(),
  }));
}

export type EventDelivery = ReturnType<typeof createEventDelivery>;

/** Which team roles hear which events (docs/account.md "Team members"): every role sees shipments; account matters go to admins. */
const ROLES_FOR: Record<'load' | 'account' | 'contact' | 'conversation', readonly string[]> = {
  load: ['admin', 'dispatcher', 'viewer'],
  // a chat about a load: the members who see shipments
  conversation: ['admin', 'dispatcher', 'viewer'],
  account: ['admin'],
  // a contact-form message has no account party: no one (and no webhook) receives it
  contact: [],
};

/** Who an event is for: the accounts (parties) and the team members acting for them. */
export interface Recipients {
  /** The party accounts (owners): shipper, carrier, broker, vendor — or the account itself. */
  accounts: { userId: string; as: 'shipper' | 'carrier' | 'broker' | 'account' }[];
  /** Team members of those accounts whose role allows the event. */
  members: { userId: string; ownerId: string; role: string }[];
}

/**
 * The one function that says who receives an event (webhooks now; notifications, real-time
 * later), from its parties (the payload's `shipperId`, `carrierId`, `brokerId` or `accountId`,
 * which publish guarantees) — never from any other field. Each account once.
 */
export async function recipientsOf(tx: DbOrTx, e: Pick<repo.OutboxEvent, 'type' | 'data'>): Promise<Recipients> {
  const spec = DOMAIN_EVENTS[e.type];
  if (!spec) return { accounts: [], members: [] };
  const d = e.data;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const candidates: { userId: string | null; as: Recipients['accounts'][number]['as'] }[] =
    spec.aggregate === 'load' || spec.aggregate === 'conversation'
      ? [
          { userId: str(d.shipperId), as: 'shipper' },
          { userId: str(d.carrierId), as: 'carrier' },
          { userId: str(d.brokerId), as: 'broker' },
        ]
      : spec.aggregate === 'account'
        ? [{ userId: str(d.accountId), as: 'account' }]
        : [];
  const named = candidates.filter((a): a is Recipients['accounts'][number] => a.userId !== null);
  const seen = new Set<string>();
  const accounts = named.filter((a) => !seen.has(a.userId) && seen.add(a.userId));
  const roles = ROLES_FOR[spec.aggregate];
  const members = roles.length
    ? (
        await repo.teamMembersOf(
          tx,
          accounts.map((a) => a.userId),
        )
      )
        .filter((m) => roles.includes(m.role))
        .map((m) => ({ userId: m.member_user_id, ownerId: m.owner_id, role: m.role }))
    : [];
  return { accounts, members };
}
