import type { DomainEventInput, LoadTimelineEntry } from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './events.repository.ts';

export type { OutboxEvent } from './events.repository.ts';

/** Wake-ups after a publish (the drain ticker subscribes); a delivery still never runs in the request. */
const publishListeners = new Set<() => void>();
export function onPublish(fn: () => void): () => void {
  publishListeners.add(fn);
  return () => publishListeners.delete(fn);
}

/**
 * Publish a domain event: call it with the transaction that made the change, so the event is
 * written if and only if the change commits (DESIGN §3). Delivery to handlers is the drain's
 * work; no handler runs inside the request. Returns the event id.
 */
export async function publish(tx: DbOrTx, event: DomainEventInput): Promise<string> {
  const id = newId();
  await repo.insertOutboxEvent(tx, id, event);
  for (const fn of publishListeners) fn();
  return id;
}

/**
 * An event handler. `handle` runs inside the drain's transaction (in a savepoint); it must be
 * idempotent — delivery is at least once: a drainer killed after `handle` but before its commit
 * hands the event over again.
 */
export interface EventHandler {
  name: string;
  handle(tx: DbOrTx, event: repo.OutboxEvent): Promise<void>;
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
      return db.transaction(async (tx) => {
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
    },
    /** Drain until nothing is left (tests, shutdown). */
    async drainAll(): Promise<number> {
      let total = 0;
      for (let n = await this.drainOnce(); n > 0; n = await this.drainOnce()) total += n;
      return total;
    },
  };
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
