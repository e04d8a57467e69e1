import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type Escrow, type Load } from '@masar/shared';
import { bookedLoad } from '../src/modules/assignment/assignment.testkit.ts';
import * as kit from '../src/modules/escrow/escrow.testkit.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';

// Payment protection (issue 50; docs/billing.md "Payment protection and the ledger"): escrow
// funded at booking from the shipper's wallet, released after the dispute window, held by a
// dispute and settled by the operator; races of release and dispute; the ledger balances.
// Runs on PGlite and PostgreSQL.

let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  await kit.topUp(t.app, shipper.id, 100_000);
});
afterAll(() => t?.close());

const svc = () => t.app.container.services.escrow;
const ledger = () => t.app.container.services.ledger;
const topUp = (u: TestUser, sar: number) => kit.topUp(t.app, u.id, sar);
const call = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, u: TestUser, payload?: object, lang = 'en') => {
  const r = await t.app.inject({ method, url: `/api/v1${url}`, headers: { ...u.headers, language: lang, 'idempotency-key': randomUUID() }, payload });
  return { status: r.statusCode, body: r.json<{ data: T; code?: string; message: string }>() };
};
const escrowOf = async (loadId: string, u = shipper) => (await call<Escrow>('GET', `/loads/${loadId}/escrow`, u)).body.data;
const protectedBooking = (by = shipper, expected = 'funded') => kit.protectedBooking(t.app, by, carrier, expected);
const complete = (loadId: string) => kit.completeShipment(t.app, shipper, carrier, loadId);
const dueNow = (id: string) => t.database.query(`update escrows set release_at = now() - interval '1 second' where id = $1`, [id]);
const journals = async (kind: string, factId: string) =>
  (await t.database.query<{ n: number }>(`select count(*)::int as n from ledger_journals where fact_kind = $1 and fact_id = $2`, [kind, factId]))[0].n;
const events = async (type: string, loadId: string) =>
  (await t.database.query<{ n: number }>(`select count(*)::int as n from outbox_events where type = $1 and aggregate_id = $2`, [type, loadId]))[0].n;
const dispute = (loadId: string, u: TestUser, lang = 'en') =>
  call<Escrow>(
    'POST',
    `/loads/${loadId}/escrow/dispute`,
    u,
    { reason: 'Two pallets arrived broken', evidence: 'Photos on the drop proof; consignee note' },
    lang,
  );

describe('payment protection', () => {
  it('funds price + VAT from the shipper’s wallet at booking; the carrier sees it funded; the post shows protection', async () => {
    const load = await protectedBooking();
    const e = await escrowOf(load.id, carrier);
    expect(e).toMatchObject({ status: 'funded', priceSar: '2800.00', vatSar: '420.00', totalSar: '3220.00', releaseAt: null });
    expect((await call<Load>('GET', `/loads/${load.id}`, carrier)).body.data.paymentProtection).toBe(true);
    const wallet = (await call<{ balanceSar: string; entries: { kind: string; amountSar: string }[] }>('GET', '/wallet', shipper)).body.data;
    expect(wallet.balanceSar).toBe('96780.00');
    expect(wallet.entries[0]).toMatchObject({ kind: 'escrow', amountSar: '-3220.00' });
    expect(await ledger().balanceOf(t.database.db, shipper.id, 'escrow_held')).toBe(322_000);
    expect(await events('payment.funded', load.id)).toBe(1);
    // a redelivered booking event changes nothing
    await t.database.db.transaction((tx) => svc().onBooked(tx, load.id));
    expect(await journals('escrow.funded', e.id)).toBe(1);
    // an unprotected load has no escrow; a stranger sees none
    const plain = await bookedLoad(t.app, shipper.headers, carrier.headers);
    await t.app.container.services.events.drainAll();
    expect((await call('GET', `/loads/${plain.id}/escrow`, shipper)).body.code).toBe('ESCROW_NOT_FOUND');
    const stranger = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    expect((await call('GET', `/loads/${load.id}/escrow`, stranger)).status).toBe(404);
  });

  it('stays unfunded when the wallet is short; the shipper funds it after a top-up, once', async () => {
    const poor = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const load = await protectedBooking(poor, 'unfunded');
    expect((await escrowOf(load.id, poor)).status).toBe('unfunded');
    const short = await call('POST', `/loads/${load.id}/escrow/fund`, poor, undefined, 'ar');
    expect(short.status).toBe(402);
    expect(short.body).toMatchObject({ code: 'INSUFFICIENT_WALLET_BALANCE', message: 'رصيد محفظتك لا يكفي لهذا الدفع.' });
    expect((await call('POST', `/loads/${load.id}/escrow/fund`, carrier)).body.code).toBe('FORBIDDEN');
    await topUp(poor, 4000);
    const funded = await call<Escrow>('POST', `/loads/${load.id}/escrow/fund`, poor);
    expect(funded.status).toBe(200);
    expect(funded.body.data.status).toBe('funded');
    expect((await call('POST', `/loads/${load.id}/escrow/fund`, poor)).body.code).toBe('ESCROW_NOT_FUNDABLE');
  });

  it('releases to the carrier after the dispute window that follows completion, once', async () => {
    const load = await protectedBooking();
    await complete(load.id);
    const e = await escrowOf(load.id);
    expect(e.status).toBe('release_scheduled');
    const windowH = (new Date(e.releaseAt!).getTime() - Date.now()) / 3_600_000;
    expect(windowH).toBeGreaterThan(47.9);
    expect(windowH).toBeLessThanOrEqual(48);
    // the job was queued for the end of the window
    const [job] = await t.database.query<{ start_after: Date }>(`select start_after from pgboss.job where name = 'escrow.release' and singleton_key = $1`, [
      `escrow:${e.id}`,
    ]);
    expect(Math.abs(new Date(job.start_after).getTime() - new Date(e.releaseAt!).getTime())).toBeLessThan(1000);
    expect(await svc().release(e.id)).toBe(false); // not due yet
    await dueNow(e.id);
    expect(await svc().releaseDue()).toBeGreaterThanOrEqual(1);
    expect(await svc().release(e.id)).toBe(false);
    expect((await escrowOf(load.id, carrier)).status).toBe('released');
    expect(await journals('escrow.released', e.id)).toBe(1);
    expect(await events('payment.released', load.id)).toBe(1);
    expect(await ledger().balanceOf(t.database.db, carrier.id, 'payable')).toBeGreaterThanOrEqual(280_000);
  });

  it('a dispute holds the release; the operator settles it partially, with a reason', async () => {
    const before = await ledger().balanceOf(t.database.db, carrier.id, 'payable');
    const load = await protectedBooking();
    await complete(load.id);
    const tooShort = await call('POST', `/loads/${load.id}/escrow/dispute`, carrier, { reason: 'bad', evidence: 'x' }, 'ar');
    expect(tooShort.status).toBe(400);
    expect(JSON.stringify(tooShort.body)).toContain('اكتب السبب');
    const d = await dispute(load.id, carrier);
    expect(d.status).toBe(200);
    expect(d.body.data).toMatchObject({ status: 'disputed', dispute: { by: 'carrier', reason: 'Two pallets arrived broken' } });
    expect((await dispute(load.id, shipper)).body.code).toBe('ESCROW_NOT_DISPUTABLE');
    await dueNow(d.body.data.id);
    expect(await svc().release(d.body.data.id)).toBe(false); // held
    await expect(svc().settle({ loadId: load.id }, { kind: 'partial', carrierSar: '3220.00', reason: 'split' })).rejects.toMatchObject({
      code: 'ESCROW_BAD_AMOUNT',
    });
    const s = await svc().settle({ loadId: load.id }, { kind: 'partial', carrierSar: '1150.00', reason: 'Two of twenty pallets damaged' });
    expect(s).toMatchObject({ status: 'settled', settlement: { kind: 'partial', carrierSar: '1150.00', refundSar: '2070.00' } });
    // 1150.00 incl. VAT → 1000.00 payable + 150.00 VAT to the carrier; 2070.00 back to the shipper's wallet
    expect((await ledger().balanceOf(t.database.db, carrier.id, 'payable')) - before).toBe(100_000);
    const refund = await t.database.query<{ amount_halalas: string }>(
      `select amount_halalas from wallet_entries where escrow_id = $1 and kind = 'escrow_refund'`,
      [s.id],
    );
    expect(refund.map((r) => Number(r.amount_halalas))).toEqual([207_000]);
    await expect(svc().settle({ loadId: load.id }, { kind: 'full', reason: 'again' })).rejects.toMatchObject({ code: 'ESCROW_NOT_SETTLEABLE' });
    expect(await events('payment.disputed', load.id)).toBe(1);
    expect(await events('payment.settled', load.id)).toBe(1);
  });

  it('20 parallel releases and disputes of one escrow end in exactly one outcome', async () => {
    const load = await protectedBooking();
    await complete(load.id);
    const id = (await escrowOf(load.id)).id;
    await dueNow(id);
    const [releases, disputes] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, () => svc().release(id))),
      Promise.all(Array.from({ length: 10 }, (_, i) => dispute(load.id, i % 2 ? carrier : shipper))),
    ]);
    const released = releases.filter(Boolean).length;
    const disputed = disputes.filter((r) => r.status === 200).length;
    expect(released + disputed).toBe(1);
    expect(disputes.filter((r) => r.status !== 200).every((r) => r.body.code === 'ESCROW_NOT_DISPUTABLE')).toBe(true);
    expect((await escrowOf(load.id)).status).toBe(released ? 'released' : 'disputed');
    expect(await journals('escrow.released', id)).toBe(released);
  });

  it('a completion delivered twice (double proof of delivery) releases once', async () => {
    const load = await protectedBooking();
    await complete(load.id);
    const id = (await escrowOf(load.id)).id;
    const again = await Promise.all(Array.from({ length: 20 }, () => t.database.db.transaction((tx) => svc().onCompleted(tx, load.id))));
    expect(again.every((r) => r === null)).toBe(true);
    await dueNow(id);
    const runs = await Promise.all(Array.from({ length: 20 }, () => svc().release(id)));
    expect(runs.filter(Boolean)).toHaveLength(1);
    expect(await journals('escrow.released', id)).toBe(1);
    expect(await events('payment.released', load.id)).toBe(1);
  });

  it('a cancelled booking refunds the escrow to the wallet; the ledger balances', async () => {
    const load = await protectedBooking();
    const e = await escrowOf(load.id);
    const r = await t.app.inject({ method: 'DELETE', url: `/api/v1/loads/${load.id}`, headers: { ...shipper.headers, 'idempotency-key': randomUUID() } });
    expect(r.statusCode, r.body).toBeLessThan(300);
    await kit.escrowReaches(t.app, load.id, 'refunded', shipper);
    expect(await escrowOf(load.id)).toMatchObject({ status: 'refunded', settlement: { kind: 'refund', refundSar: '3220.00' } });
    expect(await journals('escrow.refunded', e.id)).toBe(1);
    const [tb] = await ledger().trialBalance();
    expect(tb.total).toBe(0);
    // the shipper's escrow_held is what its open escrows hold, no more
    const [{ held }] = await t.database.query<{ held: string }>(
      `select coalesce(sum(price_halalas + vat_halalas), 0)::bigint as held from escrows where shipper_id = $1 and status in ('funded', 'release_scheduled', 'disputed')`,
      [shipper.id],
    );
    expect(await ledger().balanceOf(t.database.db, shipper.id, 'escrow_held')).toBe(Number(held));
  });
});

describe('payout account (Saudi IBAN)', () => {
  it('stores a valid IBAN with its bank named; refuses bad check digits and another country, in Arabic', async () => {
    const put = (u: TestUser, iban: string, lang = 'en') =>
      call<{ iban: string; bankNameEn: string; bankNameAr: string }>('PUT', '/payoutAccount', u, { iban, holderName: 'Nawaf Transport Co' }, lang);
    const ok = await put(carrier, 'sa03 8000 0000 6080 1016 7519');
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ iban: 'SA0380000000608010167519', bankCode: '80', bankNameEn: 'Al Rajhi Bank', bankNameAr: 'مصرف الراجحي' });
    const check = await put(carrier, 'SA0480000000608010167519', 'ar');
    expect(check.status).toBe(400);
    expect(JSON.stringify(check.body)).toContain('أرقام التحقق في رقم الآيبان غير مطابقة');
    const country = await put(carrier, 'AE070331234567890123456', 'ar');
    expect(JSON.stringify(country.body)).toContain('يبدأ رقم الآيبان السعودي بـ SA');
    expect((await call('GET', '/payoutAccount', carrier)).body.data).toMatchObject({ iban: 'SA0380000000608010167519' });
    expect((await put(shipper, 'SA0380000000608010167519')).body.code).toBe('FORBIDDEN');
  });
});
