import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, RATE_ALERTS_MAX, type Notification, type RateAlert } from '@masar/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { apiCaller, createUser, type TestUser } from '../../../test/fixtures.ts';
import { crosses } from './alerts.service.ts';
import { daysAgo, seedLaneDays } from './forecast.testkit.ts';

// Rate-change alerts (issue 20; spec §2 /rate-change-alerts, §3 "rate alert window 24 hours"):
// CRUD with the per-account cap under a race; the hourly check fires once per crossing (also
// under 30 concurrent runs), in both directions, in % and SAR, and e-mails once in the account's
// language. PGlite and PostgreSQL.

const RIYADH = 3;
const JEDDAH = 18;
const DAMMAM = 13;
const MAKKAH = 6;

let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
const { call, ok } = apiCaller(() => t);
const keyed = (user: TestUser, key: string = randomUUID()) => ({ ...user.headers, 'idempotency-key': key });
const create = (user: TestUser, body: object, headers = keyed(user)) => call<RateAlert>('POST', '/rateAlerts', headers, body);
const list = async (user: TestUser) => ok(await call<{ items: RateAlert[] }>('GET', '/rateAlerts', user.headers)).items;
const svc = () => t.app.container.services.rateAlerts;
const firings = async (alertId: string) =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from rate_alert_firings where alert_id = $1', [alertId]))[0].n;
const outbox = () => t.app.gateways.email.outbox!();
const base = { originCityId: RIYADH, destinationCityId: JEDDAH, kind: 'spot', email: 'alerts@example.com' };

beforeAll(async () => {
  t = await createTestApp();
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  await t.database.query(`update users set language = 'ar' where id = $1`, [carrier.id]);
});
afterAll(() => t?.close());

describe('the crossing rule', () => {
  it('compares the change with the threshold in % of the day before or in SAR, in the direction asked', () => {
    expect(crosses({ direction: 'up', threshold: 10, unit: 'pct' }, 2000, 2200)).toBe(true); // exactly 10 %
    expect(crosses({ direction: 'up', threshold: 10, unit: 'pct' }, 2000, 2199)).toBe(false);
    expect(crosses({ direction: 'up', threshold: 10, unit: 'pct' }, 2000, 1700)).toBe(false);
    expect(crosses({ direction: 'down', threshold: 300, unit: 'sar' }, 2000, 1700)).toBe(true);
    expect(crosses({ direction: 'down', threshold: 300, unit: 'sar' }, 2000, 2400)).toBe(false);
    expect(crosses({ direction: 'both', threshold: 5, unit: 'pct' }, 2000, 2100)).toBe(true);
    expect(crosses({ direction: 'both', threshold: 5, unit: 'pct' }, 2000, 1900)).toBe(true);
    expect(crosses({ direction: 'both', threshold: 5, unit: 'pct' }, 2000, 2000)).toBe(false);
  });
});

describe('/rateAlerts', () => {
  it('creates (idempotent), lists, pauses, resumes and deletes my alerts; nobody else sees or changes them', async () => {
    const headers = keyed(shipper);
    const a = ok(await create(shipper, { ...base, direction: 'up', threshold: 12.5, unit: 'pct', equipment: 'flatbed' }, headers), 201);
    expect(a).toMatchObject({ direction: 'up', threshold: 12.5, unit: 'pct', equipment: 'flatbed', active: true, lastTriggeredAt: null });
    expect(a.origin).toMatchObject({ id: RIYADH, nameEn: 'Riyadh' });
    // the same key replays the answer, no second alert
    const again = ok(await create(shipper, { ...base, direction: 'up', threshold: 12.5, unit: 'pct', equipment: 'flatbed' }, headers), 201);
    expect(again.id).toBe(a.id);
    expect((await list(shipper)).map((x) => x.id)).toEqual([a.id]);
    expect(await list(carrier)).toEqual([]);
    expect((await call('PATCH', `/rateAlerts/${a.id}`, carrier.headers, { active: false })).status).toBe(404);
    expect((await call('DELETE', `/rateAlerts/${a.id}`, carrier.headers)).status).toBe(404);
    expect(ok(await call<RateAlert>('PATCH', `/rateAlerts/${a.id}`, shipper.headers, { active: false })).active).toBe(false);
    expect(ok(await call<RateAlert>('PATCH', `/rateAlerts/${a.id}`, shipper.headers, { active: true, threshold: 300, unit: 'sar' }))).toMatchObject({
      active: true,
      threshold: 300,
      unit: 'sar',
    });
    ok(await call('DELETE', `/rateAlerts/${a.id}`, shipper.headers));
    expect(await list(shipper)).toEqual([]);
  });

  it('validates the body with localized messages and refuses unknown cities', async () => {
    const bad = await call('POST', '/rateAlerts', { ...keyed(shipper), language: 'ar' }, { ...base, direction: 'sideways', threshold: -1, unit: 'pct' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors!.map((e) => e.path).sort()).toEqual(['direction', 'threshold']);
    expect(bad.body.errors!.find((e) => e.path === 'threshold')!.message).toContain('أدخل حداً');
    const city = await create(shipper, { ...base, originCityId: 999_999, direction: 'up', threshold: 5, unit: 'pct' });
    expect(city.status).toBe(400);
    expect(city.body.code).toBe('INVALID_CITY');
  });

  it(`keeps at most ${RATE_ALERTS_MAX} per account under 30 parallel creates`, async () => {
    const user = await createUser(t, { accountType: ACCOUNT_TYPE.broker });
    const res = await Promise.all(Array.from({ length: 30 }, (_, i) => create(user, { ...base, direction: 'both', threshold: i + 1, unit: 'sar' })));
    expect(res.filter((r) => r.status === 201)).toHaveLength(RATE_ALERTS_MAX);
    expect(res.filter((r) => r.status === 409).every((r) => r.body.code === 'LIMIT_REACHED')).toBe(true);
    expect(res.filter((r) => r.status === 409)).toHaveLength(30 - RATE_ALERTS_MAX);
    expect(await list(user)).toHaveLength(RATE_ALERTS_MAX);
  });
});

describe('identical alerts (issue 46)', () => {
  it("are refused like saved searches: 20 parallel identical creates leave one, the rest 409 DUPLICATE_RATE_ALERT in the reader's language", async () => {
    const user = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const same = { ...base, direction: 'up', threshold: 7.5, unit: 'pct' } as const;
    const res = await Promise.all(Array.from({ length: 20 }, () => create(user, same)));
    expect(res.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = res.filter((r) => r.status === 409);
    expect(refused).toHaveLength(19);
    expect(refused.every((r) => r.body.code === 'DUPLICATE_RATE_ALERT')).toBe(true);
    expect(await list(user)).toHaveLength(1);
    const ar = await call('POST', '/rateAlerts', { ...keyed(user), language: 'ar' }, same);
    expect(ar.status).toBe(409);
    expect(ar.body.message).toBe('لديك تنبيه أسعار مطابق بالفعل.');
    // another threshold is another alert; changing it to the first one's is refused too
    const other = ok(await create(user, { ...same, threshold: 10 }), 201);
    const patch = await call('PATCH', `/rateAlerts/${other.id}`, user.headers, { threshold: 7.5 });
    expect(patch.status).toBe(409);
    expect(patch.body.code).toBe('DUPLICATE_RATE_ALERT');
  });
});

describe('the hourly check', () => {
  // each test its own lanes and alerts: a clean slate of active alerts
  beforeEach(async () => {
    await t.database.query('update rate_alerts set active = false');
  });

  it('fires once when the threshold is crossed, not again in the same window, even with 30 concurrent runs; one e-mail', async () => {
    await seedLaneDays(t, { origin: RIYADH, destination: JEDDAH }, [
      { day: daysAgo(2), avgSar: 2000 },
      { day: daysAgo(1), avgSar: 2300 },
    ]);
    const up = ok(await create(shipper, { ...base, direction: 'up', threshold: 10, unit: 'pct' }), 201);
    const under = ok(await create(shipper, { ...base, direction: 'up', threshold: 20, unit: 'pct' }), 201);
    const before = outbox().length;
    const fired = await Promise.all(Array.from({ length: 30 }, () => svc().checkDue()));
    expect(fired.reduce((s, n) => s + n, 0)).toBe(1);
    expect(await firings(up.id)).toBe(1);
    expect(await firings(under.id)).toBe(0);
    expect(await svc().checkDue()).toBe(0);
    const events = await t.database.query<{ data: Record<string, unknown> }>(
      `select data from outbox_events where type = 'rate.alert_triggered' and data->>'alertId' = $1`,
      [up.id],
    );
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({
      accountId: shipper.id,
      windowKey: daysAgo(1),
      previousAvgSar: '2000.00',
      currentAvgSar: '2300.00',
      changePct: '15.00',
      lane: { originCityId: RIYADH, destinationCityId: JEDDAH, equipment: '*', kind: 'spot' },
    });
    // the e-mail leaves from the outbox handler, once
    const emailed = async () =>
      (await t.database.query<{ emailed_at: Date | null }>('select emailed_at from rate_alert_firings where alert_id = $1', [up.id]))[0].emailed_at != null;
    await expect.poll(emailed, { timeout: 15_000 }).toBe(true);
    const mails = outbox().slice(0, outbox().length - before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'alerts@example.com' });
    expect(mails[0].subject).toBe('Rate alert: Riyadh → Jeddah up 15.0 %');
    expect(mails[0].text).toContain('SAR 2,300.00 per trip');
    // a redelivered event sends nothing twice
    await t.database.query(`delete from outbox_deliveries where handler = 'rate-alert-emails'`);
    await t.database.query(`update outbox_events set delivered_at = null where type = 'rate.alert_triggered'`);
    await t.app.container.services.events.drainAll();
    expect(outbox().length - before).toBe(1);
    expect((await list(shipper)).find((a) => a.id === up.id)!.lastTriggeredAt).not.toBeNull();
    // one in-app notification (issue 21) opening the alerts, and no second e-mail queued for it
    const inApp = ok(await call<{ items: Notification[] }>('GET', '/user/notification?category=rates', shipper.headers)).items;
    expect(inApp.filter((n) => n.type === 'rate.alert_triggered')).toHaveLength(1);
    expect(inApp[0]).toMatchObject({ link: '/shippers/rate-change-alerts', params: { changePct: '15.00', currentAvgSar: '2300.00' } });
    const queued = await t.database.query<{ n: number }>(`select count(*)::int as n from notification_emails where category = 'rates'`);
    expect(queued[0].n).toBe(0);
  });

  it('fires downwards in SAR (e-mail in the account language), not for an upward-only alert or a paused one', async () => {
    await seedLaneDays(t, { origin: RIYADH, destination: DAMMAM, equipment: 'reefer' }, [
      { day: daysAgo(2), avgSar: 1800 },
      { day: daysAgo(1), avgSar: 1450 },
    ]);
    const lane = { ...base, destinationCityId: DAMMAM, equipment: 'reefer', email: 'carrier-alerts@example.com' };
    const down = ok(await create(carrier, { ...lane, direction: 'down', threshold: 300, unit: 'sar' }), 201);
    const both = ok(await create(carrier, { ...lane, direction: 'both', threshold: 15, unit: 'pct' }), 201);
    const upOnly = ok(await create(carrier, { ...lane, direction: 'up', threshold: 1, unit: 'sar' }), 201);
    const paused = ok(await create(carrier, { ...lane, direction: 'down', threshold: 1, unit: 'sar' }), 201);
    ok(await call('PATCH', `/rateAlerts/${paused.id}`, carrier.headers, { active: false }));
    // the all-equipment row of the lane does not count for a reefer alert
    await seedLaneDays(t, { origin: RIYADH, destination: DAMMAM }, [
      { day: daysAgo(2), avgSar: 1800 },
      { day: daysAgo(1), avgSar: 1800 },
    ]);
    const before = outbox().length;
    expect(await svc().checkDue()).toBe(2);
    expect([await firings(down.id), await firings(both.id), await firings(upOnly.id), await firings(paused.id)]).toEqual([1, 1, 0, 0]);
    await expect.poll(() => outbox().length - before, { timeout: 15_000 }).toBe(2);
    const mail = outbox()[0];
    expect(mail.to).toBe('carrier-alerts@example.com');
    expect(mail.subject).toContain('تنبيه سعر');
    expect(mail.subject).toContain('انخفض');
    expect(mail.text).toContain('١٬٤٥٠');
  });

  it('does not compare a lane without records on either day', async () => {
    await seedLaneDays(t, { origin: RIYADH, destination: MAKKAH }, [{ day: daysAgo(1), avgSar: 5000 }]);
    const a = ok(await create(shipper, { ...base, destinationCityId: MAKKAH, direction: 'both', threshold: 1, unit: 'sar' }), 201);
    expect(await svc().checkDue()).toBe(0);
    expect(await firings(a.id)).toBe(0);
  });
});
