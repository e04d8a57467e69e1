import type { DomainEventInput } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { insertOutboxEvent } from './events.repository.ts';

/**
 * Publish a domain event: call it with the transaction that made the change, so the event is
 * written if and only if the change commits (DESIGN §3). Delivery to handlers is a job's work;
 * no handler runs inside the request. Returns the event id.
 */
export async function publish(tx: DbOrTx, event: DomainEventInput): Promise<string> {
  const id = newId();
  await insertOutboxEvent(tx, id, event);
  return id;
}
