import type { Db } from '../../db/client.ts';
import { recipientsOf, type EventHandler, type OutboxEvent } from '../events/events.service.ts';
import type { Realtime } from './realtime.broker.ts';

/**
 * The outbox consumer `realtime` (issue 21): after the drain commits, each event goes to the
 * profile topic of every user who is a party of it — the accounts the event names and their team
 * members whose role hears that aggregate (the same recipients as the stored notifications), the
 * actor included (their other tabs and devices update too). The message names what changed;
 * clients re-read it from the API.
 *
 * Suspension and deletion also ask every instance to sweep its connections, so the account's
 * sessions are cut once the client has had the message (spec §4: the dialog, then logout).
 */
export function realtimeHandler(opts: { db: Db; realtime: Realtime }): EventHandler {
  return {
    name: 'realtime',
    async handle() {
      // nothing inside the transaction: the hint must not arrive before the data is committed
    },
    async afterCommit(events: OutboxEvent[]) {
      let sweep = false;
      for (const e of events) {
        const r = await recipientsOf(opts.db, e);
        const users = [...r.accounts.map((a) => a.userId), ...r.members.map((m) => m.userId)];
        if (users.length > 0) {
          const loadId = e.aggregateType === 'load' ? e.aggregateId : typeof e.data.loadId === 'string' ? e.data.loadId : null;
          await opts.realtime.publishToUsers(users, {
            v: 1,
            kind: 'event',
            id: e.id,
            type: e.type,
            aggregateType: e.aggregateType,
            aggregateId: e.aggregateId,
            loadId,
            at: e.createdAt.toISOString(),
          });
        }
        if (e.type === 'account.suspended' || e.type === 'account.deleted') sweep = true;
      }
      if (sweep) opts.realtime.requestSweep();
    },
  };
}
