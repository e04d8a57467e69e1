import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATE_LETTER_VALUES } from '@masar/shared';
import { BayanRejectedError, BayanUnavailableError, type BayanTripInput } from './bayan.ts';
import { createHttpBayan } from './http.ts';
import { createSandboxBayan, memoryBayanStore, validateBayanTrip } from './sandbox.ts';

const trip = (over: Partial<BayanTripInput> = {}): BayanTripInput => ({
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
  ...over,
});
const codes = (t: BayanTripInput) => validateBayanTrip(t).map((i) => `${i.path}:${i.code}`);

describe('the sandbox validates as Bayan does', () => {
  it('accepts a valid trip', () => expect(codes(trip())).toEqual([]));
  it('plate letters come from the 17 Saudi plate letters; the number is 4 digits, not all zeros; plate type 1–11', () => {
    expect(codes(trip({ vehicle: { plateTypeId: 3, vehiclePlate: { number: '4567', rightLetter: 'ج', middleLetter: 'ب', leftLetter: 'ا' } } }))).toEqual([
      'vehicle.vehiclePlate.rightLetter:INVALID_PLATE_LETTER',
    ]);
    expect(codes(trip({ vehicle: { plateTypeId: 12, vehiclePlate: { number: '0000', rightLetter: 'د', middleLetter: 'ب', leftLetter: 'ا' } } }))).toEqual([
      'vehicle.plateTypeId:INVALID_PLATE_TYPE',
      'vehicle.vehiclePlate.number:INVALID_PLATE_NUMBER',
    ]);
    // property: any letter outside the 17 is refused, any of the 17 accepted
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 1 }), (ch) => {
        const t = trip({ vehicle: { plateTypeId: 3, vehiclePlate: { number: '4567', rightLetter: ch, middleLetter: 'ب', leftLetter: 'ا' } } });
        expect(codes(t).length === 0).toBe(PLATE_LETTER_VALUES.includes(ch));
      }),
    );
  });
  it('identity is 10 digits starting 1 or 2; issue number 1–100; mobile +9665XXXXXXXX', () => {
    expect(codes(trip({ driver: { identityNumber: '3012345678', issueNumber: 0, mobile: '0551234567' } }))).toEqual([
      'driver.identityNumber:INVALID_IDENTITY_NUMBER',
      'driver.issueNumber:INVALID_ISSUE_NUMBER',
      'driver.mobile:INVALID_MOBILE',
    ]);
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{8,11}$/), (id) => {
        expect(codes(trip({ driver: { identityNumber: id, issueNumber: 1, mobile: '+966551234567' } })).length === 0).toBe(/^[12]\d{9}$/.test(id));
      }),
    );
  });
  it('needs a waybill with items of positive quantity and weight, a valid fare and dates in order', () => {
    expect(codes(trip({ waybills: [] }))).toEqual(['waybills:WAYBILL_REQUIRED']);
    const w = trip().waybills[0];
    expect(codes(trip({ waybills: [{ ...w, fare: -1, items: [{ ...w.items[0], quantity: 0, weight: 0 }] }] }))).toEqual([
      'waybills.0.fare:INVALID_FARE',
      'waybills.0.items.0.quantity:INVALID_QUANTITY',
      'waybills.0.items.0.weight:INVALID_WEIGHT',
    ]);
    expect(codes(trip({ expectedDeliveryDate: '2026-11-20' }))).toEqual(['expectedDeliveryDate:DELIVERY_BEFORE_RECEIPT']);
  });
});

describe('the sandbox keeps state and can fail', () => {
  it('honours an idempotency key: the same key answers the first trip, another key files another', async () => {
    const bayan = createSandboxBayan({ store: memoryBayanStore() });
    const first = await bayan.createTrip(trip(), { idempotencyKey: 'k-1' });
    expect(await bayan.createTrip(trip(), { idempotencyKey: 'k-1' })).toEqual(first);
    const other = await bayan.createTrip(trip(), { idempotencyKey: 'k-2' });
    expect(other.tripId).not.toBe(first.tripId);
    expect((await bayan.createTrip(trip())).tripId).not.toBe(first.tripId);
  });
  it('creates, changes, closes and cancels waybills; prints a PDF; refuses invalid data', async () => {
    const bayan = createSandboxBayan({ store: memoryBayanStore() });
    const t = await bayan.createTrip(trip({ waybills: [trip().waybills[0], trip().waybills[0]] }));
    expect(t.tripId).toMatch(/^\d{9}$/);
    expect(t.waybills.map((w) => w.waybillNumber)).toEqual([expect.stringMatching(/^[A-Z0-9]{6}$/), expect.stringMatching(/^[A-Z0-9]{6}$/)]);
    const moved = await bayan.changeVehicle(t.tripId, {
      plateTypeId: 3,
      vehiclePlate: { number: '1111', rightLetter: 'ه', middleLetter: 'و', leftLetter: 'ى' },
    });
    expect(moved.vehicle.vehiclePlate.number).toBe('1111');
    expect((await bayan.changeDriver(t.tripId, { identityNumber: '2012345678', issueNumber: 1, mobile: '+966500000001' })).driver.identityNumber).toBe(
      '2012345678',
    );
    await expect(bayan.changeDriver(t.tripId, { identityNumber: '12', issueNumber: 1, mobile: '+966500000001' })).rejects.toBeInstanceOf(BayanRejectedError);
    expect(await bayan.closeWaybill(t.waybills[0].waybillId, '2026-11-26')).toMatchObject({ status: 'closed', actualDeliveryDate: '2026-11-26' });
    expect(await bayan.cancelWaybill(t.waybills[1].waybillId, 'theft')).toMatchObject({ status: 'cancelled', cancelReasonId: 3 });
    await expect(bayan.cancelWaybill(t.waybills[0].waybillId, 'theft')).rejects.toBeInstanceOf(BayanRejectedError);
    expect((await bayan.getTrip(t.tripId))?.waybills.map((w) => w.status)).toEqual(['closed', 'cancelled']);
    expect(await bayan.getTrip('999999999')).toBeNull();
    expect((await bayan.printTrip(t.tripId)).subarray(0, 5).toString()).toBe('%PDF-');
    await expect(bayan.createTrip(trip({ driver: { identityNumber: 'x', issueNumber: 1, mobile: '+966551234567' } }))).rejects.toMatchObject({
      errors: [{ path: 'driver.identityNumber', code: 'INVALID_IDENTITY_NUMBER' }],
    });
  });
  it('fails on demand and can be slow', async () => {
    const bayan = createSandboxBayan({ store: memoryBayanStore(), fail: true });
    await expect(bayan.createTrip(trip())).rejects.toBeInstanceOf(BayanUnavailableError);
    bayan.control.fail = false;
    bayan.control.failNext = 1;
    await expect(bayan.createTrip(trip())).rejects.toBeInstanceOf(BayanUnavailableError);
    await expect(bayan.createTrip(trip())).resolves.toMatchObject({ tripId: expect.any(String) });
    bayan.control.delayMs = 60;
    const started = Date.now();
    await bayan.getTrip('1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  });
});

// ---- the HTTP adapter against a local server answering in Bayan's shapes ----
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[] = [];
const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString()));
    req.on('end', () => resolve(s));
  });
const server = createServer((req, res) => {
  void read(req).then((text) => {
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    const send = (status: number, json: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    if (req.method === 'POST' && req.url === '/api/v1/carrier/trip') {
      if ((body.driver as { identityNumber: string }).identityNumber === '1000000000')
        return send(400, { message: 'Validation failed', errors: [{ field: 'driver.identityNumber', message: 'NOT_FOUND' }] });
      if ((body.driver as { identityNumber: string }).identityNumber === '1999999999') return send(503, { message: 'down' });
      return send(200, { tripId: 770001, waybills: [{ waybillId: 880001, waybillNumber: 'AB12CD', status: 1 }] });
    }
    if (req.url === '/api/v1/carrier/trip/770001')
      return send(200, { tripId: 770001, waybills: [{ waybillId: 880001, status: 3, actualDeliveryDate: '2026-11-26T00:00:00' }] });
    if (req.url === '/api/v1/carrier/trip/770001/print') return res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 fake');
    if (req.method === 'PUT' && req.url?.startsWith('/api/v1/carrier/trip/')) return send(200, { success: true });
    send(404, { message: 'not found' });
  });
});
let http: ReturnType<typeof createHttpBayan>;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  http = createHttpBayan({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/`, appId: 'app1', appKey: 'key1', clientId: 'client1' });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('the HTTP adapter', () => {
  it('sends the trip with the app id, key and client id headers and reads the ids', async () => {
    const t = await http.createTrip(trip());
    expect(t).toMatchObject({ tripId: '770001', waybills: [{ waybillId: '880001', waybillNumber: 'AB12CD', status: 'active' }] });
    const s = seen.at(-1)!;
    expect(s).toMatchObject({ method: 'POST', url: '/api/v1/carrier/trip', body: { receivedDate: '2026-11-24', driver: { identityNumber: '1012345678' } } });
    expect(s.headers).toMatchObject({ app_id: 'app1', app_key: 'key1', client_id: 'client1' });
    expect((s.body.waybills as { fare: number; paidBySender: boolean }[])[0]).toMatchObject({ fare: 2800, paidBySender: true, tradable: false });
    expect(s.headers['idempotency-key']).toBeUndefined();
    // a creation with a key sends it (issue 22: the retry of a lost answer gets the same trip)
    await http.createTrip(trip(), { idempotencyKey: 'masar-bayan-load-1-row-1' });
    expect(seen.at(-1)!.headers['idempotency-key']).toBe('masar-bayan-load-1-row-1');
  });
  it('closes and cancels waybills, gets and prints the trip', async () => {
    expect(await http.closeWaybill('880001', '2026-11-26')).toMatchObject({ status: 'closed', actualDeliveryDate: '2026-11-26' });
    expect(seen.at(-1)).toMatchObject({
      method: 'PUT',
      url: '/api/v1/carrier/trip/waybill/close',
      body: { waybillId: 880001, actualDeliveryDate: '2026-11-26' },
    });
    expect(await http.cancelWaybill('880001', 'recipient_refused')).toMatchObject({ status: 'cancelled', cancelReasonId: 1 });
    expect(seen.at(-1)).toMatchObject({ url: '/api/v1/carrier/trip/waybill/cancel', body: { waybillId: 880001, reasonId: 1 } });
    expect((await http.getTrip('770001'))?.waybills[0]).toMatchObject({ status: 'closed', actualDeliveryDate: '2026-11-26' });
    expect(await http.getTrip('1')).toBeNull();
    expect((await http.printTrip('770001')).toString()).toBe('%PDF-1.4 fake');
  });
  it('a 4xx is a refusal with the field errors; a 5xx or no answer is "unavailable"', async () => {
    await expect(http.createTrip(trip({ driver: { identityNumber: '1000000000', issueNumber: 1, mobile: '+966551234567' } }))).rejects.toMatchObject({
      errors: [{ path: 'driver.identityNumber', code: 'NOT_FOUND' }],
    });
    await expect(http.createTrip(trip({ driver: { identityNumber: '1999999999', issueNumber: 1, mobile: '+966551234567' } }))).rejects.toBeInstanceOf(
      BayanUnavailableError,
    );
    const dead = createHttpBayan({ baseUrl: 'http://127.0.0.1:1/api/v1', appId: 'a', appKey: 'b', clientId: 'c', timeoutMs: 500 });
    await expect(dead.getTrip('1')).rejects.toBeInstanceOf(BayanUnavailableError);
  });
});
