import type { DomainEventInput } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { outboxEvents } from '../../db/schema/index.ts';

/** Append one event to the outbox (inside the caller's transaction). */
export async function insertOutboxEvent(tx: DbOrTx, id: string, e: DomainEventInput): Promise<void> {
  await tx.insert(outboxEvents).values({ id, type: e.type, aggregateType: e.aggregateType, aggregateId: e.aggregateId, actorId: e.actorId, data: e.data });
}
