import { eventsAfter } from '../src/modules/events/events.repository.ts';
import type { EventHandler, OutboxEvent } from '../src/modules/events/events.service.ts';
import type { TestContext } from './helpers.ts';

/**
 * The outbox events a `select * from outbox_events …` query picks, in publish order, read as the
 * drain hands them to a handler (the repository's replay read, so one row mapping serves both).
 */
export async function outboxEvents(t: TestContext, query: string, params: unknown[] = []): Promise<OutboxEvent[]> {
  const rows = await t.database.query<{ id: string; type: string }>(query, params);
  const ids = new Set(rows.map((r) => r.id));
  const types = [...new Set(rows.map((r) => r.type))];
  return (await eventsAfter(t.database.db, 0, types, 1_000_000)).filter((e) => ids.has(e.id));
}

/** Hand `events` to `handler` again in one transaction, as a drainer killed before its commit does. */
export async function redeliver(t: TestContext, handler: Pick<EventHandler, 'handle'>, events: OutboxEvent[]): Promise<void> {
  await t.database.db.transaction(async (tx) => {
    for (const e of events) await handler.handle(tx, e);
  });
}
