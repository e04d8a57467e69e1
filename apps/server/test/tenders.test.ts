import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, PROFILE_STATUS, type CreateTenderBody, type Load, type Tender, type TenderPage } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { apiCaller, createUser, type TestUser } from './fixtures.ts';
import { inDays, loadBody, postLoad } from '../src/modules/loads/loads.testkit.ts';
import { DUE_TENDERS_SQL, DUE_WINDOWS_SQL } from '../src/modules/tenders/tenders.repository.ts';

// Tendering (issue 19 "Tendering"): a shipper tenders its load to chosen carriers (broadcast or
// waterfall), carriers accept / counter / decline, the owner awards one answer — which books the
// load through the offers' booking path and the loads lifecycle — and the others close; the
// tender job closes tenders past their deadline (posting the load when asked) and passes expired
// waterfall turns on. Runs on PGlite and PostgreSQL.

let t: TestContext;
let shipper: TestUser;
let carriers: TestUser[];
let stranger: TestUser;
const { call, ok } = apiCaller(() => t);

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, companyName: 'Najd Cement' });
  carriers = [];
  for (let i = 0; i < 3; i++) carriers.push(await createUser(t, { accountType: ACCOUNT_TYPE.carrier, companyName: `Carrier ${i}` }));
  stranger = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(() => t?.close());

const tenderBody = (loadId: string, over: Partial<CreateTenderBody> = {}): CreateTenderBody => ({
  loadId,
  carrierIds: carriers.map((c) => c.id),
  deadline: inDays(1),
  targetRateSar: '2800',
  ...over,
});
const create = async (body: CreateTenderBody, who = shipper) =>
  ok(await call<Tender>('POST', '/tenders', { ...who.headers, 'idempotency-key': randomUUID() }, body), 201);
const answer = (id: string, who: TestUser, body: { action: string; amountSar?: string }, lang = 'en') =>
  call<Tender>('POST', `/tenders/${id}/answer`, { ...who.headers, language: lang }, body);
const award = (id: string, inviteId: string, lang = 'en') => call<Tender>('POST', `/tenders/${id}/award`, { ...shipper.headers, language: lang }, { inviteId });
const get = (id: string, who = shipper) => call<Tender>('GET', `/tenders/${id}`, who.headers);
const loadOf = async (id: string) => ok(await call<Load>('GET', `/loads/${id}`, shipper.headers));
const eventsOf = async (loadId: string) =>
  (
    await t.database.query<{ type: string; data: Record<string, unknown> }>('select type, data from outbox_events where aggregate_id = $1 order by seq', [
      loadId,
    ])
  ).map((e) => ({ type: e.type, data: e.data }));
const inviteOf = (tender: Tender, who: TestUser) => tender.invites.find((i) => i.carrierId === who.id)!;
const runJob = () => t.app.container.services.tenders.processDue();

describe('tendering a load (broadcast)', () => {
  it('invites every carrier at once, with tender.created and tender.invited; the owner sees all invites, a carrier only its own', async () => {
    const load = await postLoad(t.app, shipper.headers, loadBody({ post: false }));
    const tender = await create(tenderBody(load.id));
    expect(tender).toMatchObject({ status: 'open', mode: 'broadcast', targetRateSar: '2800.00', isMine: true, loadReferenceId: load.referenceId });
    expect(tender.invites.map((i) => i.status)).toEqual(['invited', 'invited', 'invited']);
    const types = (await eventsOf(load.id)).map((e) => e.type);
    expect(types).toEqual(['tender.created', 'tender.invited', 'tender.invited', 'tender.invited']);
    const seen = ok(await get(tender.id, carriers[1]));
    expect(seen.isMine).toBe(false);
    expect(seen.invites.map((i) => i.carrierId)).toEqual([carriers[1].id]);
    const received = ok(await call<TenderPage>('GET', '/tenders?tab=received', carriers[1].headers));
    expect(received.items.map((i) => i.id)).toContain(tender.id);
    const sent = ok(await call<TenderPage>('GET', '/tenders?tab=sent&limit=1', shipper.headers));
    expect(sent.items[0].id).toBe(tender.id);
    // one open tender per load
    const again = await call('POST', '/tenders', shipper.headers, tenderBody(load.id));
    expect(again.body).toMatchObject({ code: 'TENDER_EXISTS' });
  });

  it('accept, counter, decline side by side; the award books the load at the answered amount and closes the others', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const tender = await create(tenderBody(load.id));
    expect(ok(await answer(tender.id, carriers[0], { action: 'accept' })).invites[0]).toMatchObject({ status: 'accepted', amountSar: '2800.00' });
    ok(await answer(tender.id, carriers[1], { action: 'counter', amountSar: '2650' }));
    // answered once only
    expect((await answer(tender.id, carriers[1], { action: 'decline' })).body).toMatchObject({ code: 'TENDER_ALREADY_ANSWERED' });
    const mine = ok(await get(tender.id));
    expect(mine.invites.map((i) => [i.status, i.amountSar])).toEqual([
      ['accepted', '2800.00'],
      ['countered', '2650.00'],
      ['invited', null],
    ]);
    // not yet WASL-verified: nobody is compliant
    expect(mine.lowestCompliantInviteId).toBeNull();
    // declined or unanswered: not awardable
    expect((await award(tender.id, inviteOf(mine, carriers[2]).id)).body).toMatchObject({ code: 'TENDER_NOT_AWARDABLE' });

    const awarded = ok(await award(tender.id, inviteOf(mine, carriers[1]).id));
    expect(awarded.status).toBe('awarded');
    expect(awarded.invites.map((i) => i.status)).toEqual(['closed', 'awarded', 'closed']);
    expect(await loadOf(load.id)).toMatchObject({ status: 'unassigned', carrierId: carriers[1].id, bookedPriceSar: '2650.00' });
    const events = await eventsOf(load.id);
    const tail = events.slice(events.findIndex((e) => e.type === 'offer.accepted')).map((e) => e.type);
    expect(tail).toEqual(['offer.accepted', 'load.booked', 'tender.invite_awarded', 'tender.awarded', 'tender.invite_closed', 'tender.invite_closed']);
    expect(events.find((e) => e.type === 'tender.awarded')!.data).toMatchObject({ tenderId: tender.id, carrierId: carriers[1].id, amountSar: '2650.00' });
    expect(events.filter((e) => e.type === 'tender.invite_closed').map((e) => e.data.reason)).toEqual(['awarded', 'awarded']);
    // bidding closed: a late answer is refused, in Arabic too
    const late = await answer(tender.id, carriers[2], { action: 'accept' }, 'ar');
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'TENDER_NOT_OPEN', message: 'لم يعد هذا الطرح مفتوحاً: تم إغلاق تقديم العروض.' });
  });

  it('marks the lowest compliant answer: verified, not blocked, with a WASL-verified vehicle', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const tender = await create(tenderBody(load.id, { targetRateSar: undefined }));
    ok(await answer(tender.id, carriers[0], { action: 'accept' }));
    ok(await answer(tender.id, carriers[1], { action: 'counter', amountSar: '2500' }));
    ok(await answer(tender.id, carriers[2], { action: 'counter', amountSar: '2700' }));
    expect(inviteOf(ok(await get(tender.id)), carriers[0]).amountSar).toBe('3000.00');
    // carriers 0 and 2 get a WASL-verified vehicle (carrier 1, the cheapest, has none)
    for (const [n, c] of [carriers[0], carriers[2]].entries()) {
      await t.database.query(
        `insert into vehicles (id, owner_id, vehicle_type, year, make, model, colour, plate_type, plate_digits, plate_letters, sequence_number, weight_kg, wasl_status)
         values ($1, $2, 'flatbed_trailer', 2022, 'Volvo', 'FH', 'white', 1, $3, 'ABC', $4, 20000, 'verified')`,
        [randomUUID(), c.id, String(7100 + n), String(Math.floor(Math.random() * 1e9))],
      );
    }
    const mine = ok(await get(tender.id));
    expect(inviteOf(mine, carriers[1]).compliant).toBe(false);
    expect(mine.lowestCompliantInviteId).toBe(inviteOf(mine, carriers[2]).id);
  });
});

describe('validation and access', () => {
  it('refuses strangers, other owners, bad bodies (localized) and loads that are not open', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const tender = await create(tenderBody(load.id, { carrierIds: [carriers[0].id] }));
    expect((await get(tender.id, stranger)).status).toBe(404);
    expect((await answer(tender.id, stranger, { action: 'accept' })).status).toBe(404);
    expect((await call('POST', `/tenders/${tender.id}/award`, stranger.headers, { inviteId: tender.invites[0].id })).status).toBe(403);
    const other = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    expect((await call('POST', `/tenders/${tender.id}/cancel`, other.headers)).status).toBe(404);
    // another shipper cannot tender my load
    const load2 = await postLoad(t.app, shipper.headers);
    expect((await call('POST', '/tenders', other.headers, tenderBody(load2.id))).status).toBe(404);
    // validation: no carriers, a past deadline, a counter without amount — in Arabic
    const bad = await call('POST', '/tenders', { ...shipper.headers, language: 'ar' }, tenderBody(load2.id, { carrierIds: [], deadline: inDays(-1) }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toContainEqual(expect.objectContaining({ path: 'carrierIds', message: expect.stringMatching(/ناقل/) }));
    expect(bad.body.errors).toContainEqual(expect.objectContaining({ path: 'deadline' }));
    const noAmount = await answer(tender.id, carriers[0], { action: 'counter' });
    expect(noAmount.status).toBe(400);
    expect(noAmount.body.errors).toContainEqual(expect.objectContaining({ path: 'amountSar' }));
    // a shipper is not a carrier; I am not my own carrier
    expect((await call('POST', '/tenders', shipper.headers, tenderBody(load2.id, { carrierIds: [other.id] }))).body).toMatchObject({
      code: 'TENDER_INVITEE_INVALID',
    });
    // a cancelled tender: its invites close
    const cancelled = ok(await call<Tender>('POST', `/tenders/${tender.id}/cancel`, shipper.headers));
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    expect(cancelled.invites[0].status).toBe('closed');
    expect((await eventsOf(load.id)).map((e) => e.type).slice(-2)).toEqual(['tender.invite_closed', 'tender.cancelled']);
  });

  it('a pending account cannot answer; a booked load cannot be tendered', async () => {
    const pending = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, status: PROFILE_STATUS.pending });
    const load = await postLoad(t.app, shipper.headers);
    const tender = await create(tenderBody(load.id, { carrierIds: [carriers[0].id, pending.id] }));
    expect((await answer(tender.id, pending, { action: 'accept' })).status).toBe(403);
    ok(await answer(tender.id, carriers[0], { action: 'accept' }));
    ok(await award(tender.id, tender.invites[0].id));
    expect((await call('POST', '/tenders', shipper.headers, tenderBody(load.id))).body).toMatchObject({ code: 'SHIPMENT_ALREADY_ASSIGNED' });
  });
});

describe('the load booked otherwise', () => {
  it('once an ordinary offer books the load, answers and awards are refused with the load’s reason', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const tender = await create(tenderBody(load.id, { carrierIds: [carriers[0].id, carriers[1].id] }));
    ok(await answer(tender.id, carriers[0], { action: 'accept' }));
    const offer = ok(await call<{ id: string }>('POST', '/offers', stranger.headers, { loadId: load.id, priceSar: '2900' }), 201);
    ok(await call('POST', '/offerRespond', shipper.headers, { offerId: offer.id, action: 'accept' }));
    expect((await answer(tender.id, carriers[1], { action: 'accept' })).body).toMatchObject({ code: 'SHIPMENT_ALREADY_ASSIGNED' });
    expect((await award(tender.id, tender.invites[0].id)).body).toMatchObject({ code: 'SHIPMENT_ALREADY_ASSIGNED' });
    expect(await loadOf(load.id)).toMatchObject({ status: 'unassigned', carrierId: stranger.id });
  });
});

describe('the tender job', () => {
  it('closes an open tender past its deadline (tender.closed, invites closed) and posts the load to the board when asked', async () => {
    const load = await postLoad(t.app, shipper.headers, loadBody({ post: false }));
    const tender = await create(tenderBody(load.id, { postToBoardOnClose: true }));
    ok(await answer(tender.id, carriers[0], { action: 'counter', amountSar: '3100' }));
    await t.database.query(`update tenders set deadline = now() - interval '1 minute' where id = $1`, [tender.id]);
    // past its deadline: no more answers even before the job runs
    expect((await answer(tender.id, carriers[1], { action: 'accept' })).body).toMatchObject({ code: 'TENDER_NOT_OPEN' });
    expect((await runJob()).closed).toBeGreaterThanOrEqual(1);
    const closed = ok(await get(tender.id));
    expect(closed.status).toBe('closed');
    expect(closed.invites.map((i) => i.status)).toEqual(['closed', 'closed', 'closed']);
    expect((await loadOf(load.id)).status).toBe('posted');
    const types = (await eventsOf(load.id)).map((e) => e.type);
    expect(types.slice(-5)).toEqual(['tender.invite_closed', 'tender.invite_closed', 'tender.invite_closed', 'load.posted', 'tender.closed']);
    // idempotent: a second run finds nothing
    await runJob();
    expect((await eventsOf(load.id)).length).toBe(types.length);
  });

  it('waterfall: one carrier at a time; an expired turn passes to the next, a decline at once; only the active one answers', async () => {
    const load = await postLoad(t.app, shipper.headers);
    const tender = await create(tenderBody(load.id, { mode: 'waterfall', stepMinutes: 10 }));
    expect(tender.invites.map((i) => i.status)).toEqual(['invited', 'waiting', 'waiting']);
    expect(tender.invites[0].windowEndsAt).not.toBeNull();
    // the second carrier's turn has not come: it does not even see the tender
    expect((await get(tender.id, carriers[1])).status).toBe(404);
    expect((await answer(tender.id, carriers[1], { action: 'accept' })).status).toBe(404);
    // the first turn ends unanswered
    await t.database.query(`update tender_invites set window_ends_at = now() - interval '1 second' where id = $1`, [tender.invites[0].id]);
    expect((await answer(tender.id, carriers[0], { action: 'accept' })).body).toMatchObject({ code: 'TENDER_NOT_YOUR_TURN' });
    expect((await runJob()).advanced).toBeGreaterThanOrEqual(1);
    let now = ok(await get(tender.id));
    expect(now.invites.map((i) => i.status)).toEqual(['expired', 'invited', 'waiting']);
    // the second declines: the third is invited at once
    now = ok(await answer(tender.id, carriers[1], { action: 'decline' }));
    now = ok(await get(tender.id));
    expect(now.invites.map((i) => i.status)).toEqual(['expired', 'declined', 'invited']);
    ok(await answer(tender.id, carriers[2], { action: 'accept' }));
    ok(await award(tender.id, inviteOf(now, carriers[2]).id));
    expect((await loadOf(load.id)).carrierId).toBe(carriers[2].id);
    const types = (await eventsOf(load.id)).map((e) => e.type).filter((x) => x.startsWith('tender.'));
    expect(types).toEqual([
      'tender.created',
      'tender.invited',
      'tender.invite_expired',
      'tender.invited',
      'tender.answered',
      'tender.invited',
      'tender.answered',
      'tender.invite_awarded',
      'tender.awarded',
    ]);
  });

  it('reads only what is due through the partial indexes', async () => {
    for (const [q, index] of [
      [DUE_TENDERS_SQL, 'tenders_open_deadline'],
      [DUE_WINDOWS_SQL, 'tender_invites_window_due'],
    ]) {
      const plan = await t.database.session(async (c) => {
        await c.exec('set enable_seqscan = off');
        try {
          return (await c.query<Record<string, string>>(`explain ${q}`)).map((r) => Object.values(r)[0]).join('\n');
        } finally {
          await c.exec('reset enable_seqscan');
        }
      });
      expect(plan, plan).toContain(index);
    }
  });
});

describe('races', () => {
  it('20 racing awards and answers: exactly one booking, the rest clear localized refusals, no 5xx', async () => {
    const many: TestUser[] = [];
    for (let i = 0; i < 10; i++) many.push(await createUser(t, { accountType: ACCOUNT_TYPE.carrier }));
    const load = await postLoad(t.app, shipper.headers);
    const tender = await create(tenderBody(load.id, { carrierIds: many.map((c) => c.id) }));
    for (const c of many.slice(0, 5)) ok(await answer(tender.id, c, { action: 'counter', amountSar: String(2000 + Math.floor(Math.random() * 900)) }));
    const invites = ok(await get(tender.id)).invites;
    const awardable = invites.filter((i) => i.status === 'countered');
    const attempts = [
      ...Array.from({ length: 15 }, (_, i) => award(tender.id, awardable[i % awardable.length].id, i % 2 ? 'ar' : 'en')),
      ...many.slice(5).map((c) => answer(tender.id, c, { action: 'accept' })),
    ];
    const answers = await Promise.all(attempts);
    const codes = answers.map((a) => a.status);
    expect(codes.filter((c) => c >= 500)).toEqual([]);
    expect(codes.slice(0, 15).filter((c) => c === 200)).toHaveLength(1);
    for (const a of answers.slice(0, 15)) if (a.status !== 200) expect(a.body.code).toBe('TENDER_NOT_OPEN');
    expect((await loadOf(load.id)).status).toBe('unassigned');
    const booked = await t.database.query<{ n: number }>(`select count(*)::int as n from offers where load_id = $1 and status = 'accepted'`, [load.id]);
    expect(booked[0].n).toBe(1);
    expect((await eventsOf(load.id)).filter((e) => e.type === 'load.booked')).toHaveLength(1);
    const final = ok(await get(tender.id));
    expect(final.invites.filter((i) => i.status === 'awarded')).toHaveLength(1);
    expect(final.invites.filter((i) => i.status !== 'awarded').map((i) => i.status)).toEqual(Array(9).fill('closed'));
    for (const a of answers.slice(15)) if (a.status !== 200) expect(a.body.code).toBe('TENDER_NOT_OPEN');
  });
});
