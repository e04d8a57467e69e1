import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BayanTripInput } from '../src/gateways/bayan/bayan.ts';
import { createSandboxBayan } from '../src/gateways/bayan/sandbox.ts';
import { dbBayanStore } from '../src/gateways/bayan/sandbox.repository.ts';
import { createTestApp, type TestContext } from './helpers.ts';

/**
 * The sandbox Bayan service honours the creation's Idempotency-Key in its table (issue 22,
 * migration 0099), on PGlite and PostgreSQL: 20 creations sent at once with one key file one
 * trip and all answer it; another key files another trip.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
});
afterAll(() => t?.close());

const trip = (): BayanTripInput => ({
  vehicle: { plateTypeId: 3, vehiclePlate: { number: '4567', rightLetter: 'د', middleLetter: 'ب', leftLetter: 'ا' } },
  driver: { identityNumber: '1012345678', issueNumber: 2, mobile: '+966551234567' },
  receivedDate: '2026-11-24',
  expectedDeliveryDate: '2026-11-26',
  waybills: [
    {
      sender: { name: 'Al Noor', phone: '+966551234567', countryCode: 'SA', cityId: 3, address: 'Warehouse 7' },
      recipient: { name: 'Port Co', phone: '+966561234567', countryCode: 'SA', cityId: 18, address: 'Port road' },
      items: [{ goodTypeId: 'building_materials', quantity: 20, weight: 20000, price: 0, unitId: 5 }],
      fare: 2800,
      paymentMethodId: 2,
      paidBySender: true,
      tradable: false,
      receivingLocation: { countryCode: 'SA', cityId: 3, address: 'Warehouse 7' },
      deliveryLocation: { countryCode: 'SA', cityId: 18, address: 'Port road' },
    },
  ],
});

describe('the sandbox Bayan store and the Idempotency-Key', () => {
  it('20 concurrent creations with one key: one trip, every answer is that trip', async () => {
    const bayan = createSandboxBayan({ store: dbBayanStore(t.database.db) });
    const key = `masar-bayan-race-${Date.now()}`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => bayan.createTrip(trip(), { idempotencyKey: key })));
    expect(new Set(answers.map((a) => a.tripId)).size).toBe(1);
    expect(new Set(answers.map((a) => a.waybills[0].waybillNumber)).size).toBe(1);
    const rows = await t.database.query<{ id: string }>('select trip_id::text as id from bayan_sandbox_trips where idempotency_key = $1', [key]);
    expect(rows.map((r) => r.id)).toEqual([answers[0].tripId]);
    // the kept trip is the one read back, and another key files another trip
    expect((await bayan.getTrip(answers[0].tripId))?.waybills[0].waybillNumber).toBe(answers[0].waybills[0].waybillNumber);
    expect((await bayan.createTrip(trip(), { idempotencyKey: `${key}-2` })).tripId).not.toBe(answers[0].tripId);
  });
});
