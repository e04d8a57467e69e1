import type { EventHandler, OutboxEvent } from '../src/modules/events/events.service.ts';
import type { TestContext } from './helpers.ts';

/** The outbox rows a `select * from outbox_events …` query answers, as the drain hands them to a handler. */
export async function outboxEvents(t: TestContext, query: string, params: unknown[] = []): Promise<OutboxEvent[]> {
  const rows = await t.database.query<{
    id: string;
    seq: string;
    type: OutboxEvent['type'];
    aggregate_type: string;
    aggregate_id: string;
    actor_id: string | null;
    data: Record<string, unknown>;
    created_at: string;
  }>(query, params);
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

/** Hand `events` to `handler` again in one transaction, as a drainer killed before its commit does. */
export async function redeliver(t: TestContext, handler: Pick<EventHandler, 'handle'>, events: OutboxEvent[]): Promise<void> {
  await t.database.db.transaction(async (tx) => {
    for (const e of events) await handler.handle(tx, e);
  });
}
