import { describe, expect, it } from 'vitest';
import { DOMAIN_EVENTS, isEvent, type DomainEventType, type EventMap } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { publish, publishMany, type EventOf, type OutboxEvent } from './events.service.ts';

/**
 * Events are typed at compile time (issue 51): `publish` takes `EventInput<K>`, whose `data` is
 * derived from the event's zod schema (packages/shared events.ts). This file is checked by
 * `tsc -p apps/server` (its tsconfig includes src): every `@ts-expect-error` below must meet an
 * error, so the build fails if the typing ever loosens. The functions are never called; the
 * run-time tests tie the types to the registry (the same types exist, and the schemas refuse
 * what the types refuse).
 */

const ID = '00000000-0000-4000-8000-000000000001';
const CARRIER = '00000000-0000-4000-8000-000000000002';
const onLoad = { aggregateType: 'load', aggregateId: ID, actorId: null } as const;
const onAccount = { aggregateType: 'account', aggregateId: ID, actorId: null } as const;
/** A correct offer.accepted payload as a publisher writes it (the load's parties are added by publish). */
const accepted = { offerId: ID, carrierId: CARRIER, by: 'shipper', priceSar: '1250.00', status: { from: 'pending', to: 'accepted' } } as const;

// never called: what must compile, and what must not
export async function typeChecks(tx: DbOrTx, kind: 'vehicle' | 'driver') {
  // correct: the payload of its type; the parties publish adds (loadId, referenceId, shipperId) are optional
  await publish(tx, { type: 'offer.accepted', ...onLoad, data: accepted });
  // correct: a required status may be given as the older from/to (publish derives status)
  await publish(tx, { type: 'load.unposted', ...onLoad, data: { from: 'posted', to: 'unposted' } });
  // correct: load.assigned takes vehicle, driver and trailer from the load row
  await publish(tx, { type: 'load.assigned', ...onLoad, data: { status: { from: 'unassigned', to: 'assigned' } } });
  // the generic form (DESIGN §7): publish<K>
  await publish<'account.documents_submitted'>(tx, { type: 'account.documents_submitted', ...onAccount, data: { accountId: ID } });

  // @ts-expect-error a missing required field (offer.accepted without priceSar)
  await publish(tx, { type: 'offer.accepted', ...onLoad, data: { offerId: ID, carrierId: CARRIER, by: 'shipper', status: accepted.status } });
  // @ts-expect-error a wrong field type (priceSar is a decimal string)
  await publish(tx, { type: 'offer.accepted', ...onLoad, data: { ...accepted, priceSar: 1250 } });
  // @ts-expect-error a wrong enum value
  await publish(tx, { type: 'offer.accepted', ...onLoad, data: { ...accepted, by: 'broker' } });
  // @ts-expect-error the offer's carrier is the bidder: publish cannot take it from the (unbooked) load
  await publish(tx, { type: 'offer.created', ...onLoad, data: { offerId: ID, priceSar: '10' } });
  // @ts-expect-error an unknown event type
  await publish(tx, { type: 'offer.acceptedd', ...onLoad, data: accepted });
  // @ts-expect-error a field of another event (tripId is load.bayan_created's)
  await publish(tx, { type: 'offer.accepted', ...onLoad, data: { ...accepted, tripId: 'T-1' } });
  // @ts-expect-error a status change event without its status (nor from/to)
  await publish(tx, { type: 'load.unposted', ...onLoad, data: {} });
  // @ts-expect-error the aggregate DOMAIN_EVENTS names for the type (publish adds a load's parties only to a load)
  await publish(tx, { type: 'offer.accepted', ...onAccount, data: accepted });
  // @ts-expect-error an account event names its account
  await publish(tx, { type: 'account.documents_submitted', ...onAccount, data: {} });

  // a union type (an action → event table): what every one of them requires, the types of what any names
  const wasl = kind === 'vehicle' ? 'vehicle.wasl_changed' : 'driver.wasl_changed';
  await publish(tx, { type: wasl, ...onAccount, data: { accountId: ID, vehicleId: ID, status: { from: 'a', to: 'b' } } });
  // @ts-expect-error both require accountId
  await publish(tx, { type: wasl, ...onAccount, data: { vehicleId: ID, status: { from: 'a', to: 'b' } } });
  // @ts-expect-error vehicleId is a string in the one that names it
  await publish(tx, { type: wasl, ...onAccount, data: { accountId: ID, vehicleId: 7, status: { from: 'a', to: 'b' } } });

  // publishMany: each event checked against its own type (an offer.created payload is not a load.edited one)
  await publishMany(tx, [
    { type: 'offer.accepted', ...onLoad, data: accepted },
    { type: 'load.edited', ...onLoad, data: { fields: ['price'] } },
  ]);
  // @ts-expect-error publishMany refuses a wrong payload too
  await publishMany(tx, [{ type: 'load.edited', ...onLoad, data: { fields: 'price' } }]);
  // @ts-expect-error …and a field of another event in an element (fields is load.edited's, not offer.created's)
  await publishMany(tx, [{ type: 'offer.created', ...onLoad, data: { offerId: ID, carrierId: CARRIER, priceSar: '1', fields: [] } }]);
}

// never called: a consumer reads the narrowed payload of its event type
export function consumerChecks(e: OutboxEvent, typed: EventOf<'offer.accepted'>) {
  const price: string = typed.data.priceSar;
  // @ts-expect-error priceSar is a string
  const wrong: number = typed.data.priceSar;
  if (!isEvent(e, 'load.payment_received')) return [price, wrong];
  const days: number | null = e.data.daysToPay;
  // @ts-expect-error daysToPay is a number or null
  const at: number = e.data.at;
  return [price, wrong, days, at];
}

describe('events typed at compile time', () => {
  it('the event types the checks above use are in the registry, and their schemas refuse what the types refuse', () => {
    const used: DomainEventType[] = ['offer.accepted', 'offer.created', 'load.unposted', 'load.assigned', 'load.edited', 'account.documents_submitted'];
    for (const type of used) expect(DOMAIN_EVENTS[type]).toBeDefined();
    expect(DOMAIN_EVENTS['offer.acceptedd' as DomainEventType]).toBeUndefined();
    const parties = { loadId: ID, referenceId: 'SHP-26-000001', shipperId: ID };
    const schema = DOMAIN_EVENTS['offer.accepted'].schema;
    const ok: EventMap['offer.accepted'] = accepted;
    expect(schema.safeParse({ ...parties, ...ok }).success).toBe(true);
    expect(schema.safeParse({ ...parties, ...accepted, priceSar: 1250 }).success).toBe(false);
    expect(schema.safeParse({ ...parties, ...accepted, by: 'broker' }).success).toBe(false);
    expect(DOMAIN_EVENTS['load.unposted'].schema.safeParse(parties).success).toBe(false);
  });
});
