import { callEventOf, isEvent, type CallMessage } from '@masar/shared';
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
          const call = callMessageOf(e);
          if (call) await opts.realtime.publishToUsers(users, call);
        }
        if (e.type === 'account.suspended' || e.type === 'account.deleted') sweep = true;
      }
      if (sweep) opts.realtime.requestSweep();
    },
  };
}

/**
 * A call event as the spec's call message (issue 21 "Calls"; spec §4; docs/calls.md): the
 * server maps the state change to the spec's name, so clients need no rule of their own —
 * call.created → meetingCreated, call.accepted → joinRequestAccept, ended or cancelled by the
 * caller → meetingEndedByHost, declined or ended by the callee → memberLeave, unanswered in time →
 * meetingEndedDueToNoUserPublishing. Null for any other event.
 */
export function callMessageOf(e: OutboxEvent): CallMessage | null {
  if (!isEvent(e, 'call.created', 'call.accepted', 'call.ended', 'call.missed')) return null;
  const d = e.data;
  const event = isEvent(e, 'call.created')
    ? callEventOf('created', null, true)
    : isEvent(e, 'call.accepted')
      ? callEventOf('accepted', null, true)
      : isEvent(e, 'call.ended')
        ? callEventOf('ended', e.data.reason, e.data.endedBy === e.data.by)
        : callEventOf('ended', isEvent(e, 'call.missed') ? e.data.reason : null, true);
  return {
    v: 1,
    kind: 'call',
    event,
    meetingId: d.callId,
    conversationId: d.conversationId,
    loadId: d.loadId,
    type: d.callType,
    callerId: d.by === 'shipper' ? d.shipperId : d.carrierId,
    deviceId: isEvent(e, 'call.accepted') ? e.data.deviceId : null,
    at: e.createdAt.toISOString(),
  };
}
