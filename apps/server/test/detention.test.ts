import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, detentionOf, type Detention } from '@masar/shared';
import { newId } from '../src/lib/ids.ts';
import { assign, bookedLoad, readyVehicle } from '../src/modules/assignment/assignment.testkit.ts';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';

// Detention from the trip's facts (issue 50; docs/billing.md): step times (device time when
// recorded offline), free hours, rate, cap; the shipper accepts (ledger) or disputes, once per
// stop even under a race. Runs on PGlite and PostgreSQL.

let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(() => t?.close());

const H = 3_600_000;
const call = async <T>(method: 'GET' | 'POST', url: string, u: TestUser, payload?: object, lang = 'en') => {
  const r = await t.app.inject({ method, url: `/api/v1${url}`, headers: { ...u.headers, language: lang, 'idempotency-key': randomUUID() }, payload });
  return { status: r.statusCode, body: r.json<{ data: T; code?: string; message: string }>() };
};
/** A trip step as the trips module records it (the driver's facts), `recordedAt` the device's time. */
const step = (loadId: string, driverId: string, name: string, at: Date, recordedAt: Date | null = null) =>
  t.database.query(
    `insert into trip_steps (id, load_id, driver_id, step, at, recorded_at, lat, lng, distance_km, flagged) values ($1, $2, $3, $4, $5, $6, 24.7, 46.7, 0.2, false)`,
    [newId(), loadId, driverId, name, at.toISOString(), recordedAt?.toISOString() ?? null],
  );
const payable = async (owner: string, account: string) =>
  Number(
    (
      await t.database.query<{ n: string }>(`select coalesce(sum(amount_halalas), 0) as n from ledger_postings where owner_id = $1 and account = $2`, [
        owner,
        account,
      ])
    )[0].n,
  );

describe('detention from facts', () => {
  it('bills waiting beyond the free hours at the rate, capped, from device times; live while accruing', () => {
    const at = new Date('2026-12-01T06:00:00Z');
    const base = { arrivedAt: at, now: new Date(at.getTime() + 10 * H), freeHours: 2, rateHalalas: 10_000, capHalalas: null };
    expect(detentionOf({ ...base, departedAt: new Date(at.getTime() + 90 * 60_000) })).toMatchObject({ billableMinutes: 0, amountHalalas: 0 });
    expect(detentionOf({ ...base, departedAt: new Date(at.getTime() + 3.5 * H) })).toMatchObject({
      dwellMinutes: 210,
      billableMinutes: 90,
      amountHalalas: 15_000,
    });
    expect(detentionOf({ ...base, departedAt: null, capHalalas: 25_000 })).toMatchObject({
      billableMinutes: 480,
      amountHalalas: 25_000,
      capped: true,
      accruing: true,
    });
  });

  it('shows both parties the evidence; the shipper accepts a stop once (ledger) and cannot accept one still accruing', async () => {
    const load = await bookedLoad(
      t.app,
      shipper.headers,
      carrier.headers,
      loadBody({ detentionFreeHours: 2, detentionRateSar: '100', detentionCapSar: '250' }),
    );
    const v = await readyVehicle(t.app, carrier.headers);
    expect((await assign(t.app, carrier.headers, load.id, v.vehicleId)).statusCode).toBe(200);
    const t0 = new Date(Date.now() - 7 * H);
    // arrival tapped offline at t0, received an hour later; left 5 h after arriving; at the drop for ~1 h
    await step(load.id, v.driverId, 'at_pickup', new Date(t0.getTime() + H), t0);
    await step(load.id, v.driverId, 'to_drop', new Date(t0.getTime() + 5 * H));
    await step(load.id, v.driverId, 'at_drop', new Date(t0.getTime() + 6 * H));

    const d = (await call<Detention>('GET', `/loads/${load.id}/detention`, carrier)).body.data;
    expect(d).toMatchObject({ freeHours: 2, rateSar: '100.00', capSar: '250.00', totalSar: '250.00' });
    expect(d.stops[0]).toMatchObject({ stop: 'pickup', dwellMinutes: 300, billableMinutes: 180, amountSar: '250.00', capped: true, accruing: false });
    expect(d.stops[0].arrival).toMatchObject({ at: t0.toISOString(), recordedOffline: true, lat: 24.7, distanceKm: 0.2, flagged: false });
    expect(d.stops[1]).toMatchObject({ stop: 'drop', accruing: true, amountSar: '0.00' });

    const early = await call('POST', `/loads/${load.id}/detention/decide`, shipper, { stop: 'drop', decision: 'accept' }, 'ar');
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'DETENTION_STILL_ACCRUING', message: 'الشاحنة لا تزال في هذه المحطة: يمكن قبول رسوم الانتظار بعد مغادرتها.' });
    expect((await call('POST', `/loads/${load.id}/detention/decide`, carrier, { stop: 'pickup', decision: 'accept' })).body.code).toBe('FORBIDDEN');
    expect((await call('POST', `/loads/${load.id}/detention/decide`, shipper, { stop: 'pickup', decision: 'dispute' })).status).toBe(400);

    const ok = await call<Detention>('POST', `/loads/${load.id}/detention/decide`, shipper, { stop: 'pickup', decision: 'accept' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.stops[0].decision).toMatchObject({ decision: 'accepted', amountSar: '250.00' });
    expect(await payable(carrier.id, 'payable')).toBe(25_000);
    expect(await payable(shipper.id, 'receivable')).toBe(-25_000);
    expect((await call('POST', `/loads/${load.id}/detention/decide`, shipper, { stop: 'pickup', decision: 'accept' })).body.code).toBe(
      'DETENTION_ALREADY_DECIDED',
    );

    // the truck leaves the drop 3 h after arriving: 1 h billable = 100.00; 20 racing decisions → one
    await step(load.id, v.driverId, 'completed', new Date(t0.getTime() + 9 * H));
    const race = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(
          'POST',
          `/loads/${load.id}/detention/decide`,
          shipper,
          i % 2 ? { stop: 'drop', decision: 'accept' } : { stop: 'drop', decision: 'dispute', reason: 'The consignee was open; the driver was late.' },
        ),
      ),
    );
    expect(race.filter((r) => r.status === 200)).toHaveLength(1);
    expect(race.filter((r) => r.status !== 200).every((r) => r.body.code === 'DETENTION_ALREADY_DECIDED')).toBe(true);
    const after = (await call<Detention>('GET', `/loads/${load.id}/detention`, shipper)).body.data.stops[1];
    expect(after).toMatchObject({ billableMinutes: 60, amountSar: '100.00' });
    expect(await payable(carrier.id, 'payable')).toBe(after.decision!.decision === 'accepted' ? 35_000 : 25_000);
    const [{ n }] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from outbox_events where type = 'load.detention_decided' and aggregate_id = $1`,
      [load.id],
    );
    expect(n).toBe(2);
  });

  it('answers DETENTION_NOT_AVAILABLE without posted detention terms, and NOT_FOUND to a stranger', async () => {
    const load = await bookedLoad(t.app, shipper.headers, carrier.headers);
    expect((await call('GET', `/loads/${load.id}/detention`, shipper)).body.code).toBe('DETENTION_NOT_AVAILABLE');
    const other = await bookedLoad(t.app, shipper.headers, carrier.headers, loadBody({ detentionFreeHours: 2, detentionRateSar: '100' }));
    const stranger = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    expect((await call('GET', `/loads/${other.id}/detention`, stranger)).status).toBe(404);
  });
});
