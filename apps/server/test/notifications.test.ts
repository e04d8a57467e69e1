import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_TYPE,
  defaultNotificationPreferences,
  type Load,
  type Notification,
  type NotificationPreferences,
  type Offer,
  type TeamMember,
} from '@masar/shared';
import { signUpViaApi, uniquePhone, type SignedUpUser } from '../src/modules/auth/auth.testkit.ts';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import { listSql, watermarkOf } from '../src/modules/notifications/notifications.repository.ts';
import { emailDueAt, outsideQuietHours } from '../src/modules/notifications/notifications.service.ts';
import { apiCaller, createTeamMember, createUser, type TestUser } from './fixtures.ts';
import { createTestApp, type TestContext } from './helpers.ts';

/**
 * Stored notifications (issue 21; docs/notifications.md), on PGlite and PostgreSQL, through the
 * real lifecycle: a carrier bids → the shipper and the shipper's team member are notified, the
 * carrier (the actor) is not; a counter reaches the carrier; accept; redelivery inserts nothing;
 * mark read / all read move the counter (also under 30 concurrent mark-all calls); nobody reads
 * or marks another's; preferences off → no row / no e-mail; the e-mail digest batches.
 */
let t: TestContext;
let shipper: TestUser;
let carrier: TestUser;
let dispatcher: SignedUpUser;
const { call, ok } = apiCaller(() => t);
const drain = () => t.app.container.services.events.drainAll();

type Page = { items: Notification[]; nextCursor: string | null; unread: number };
const list = async (u: { headers: Record<string, string> }, qs = '') => ok(await call<Page>('GET', `/user/notification${qs}`, u.headers));
const unread = async (u: { headers: Record<string, string> }) => ok(await call<{ unread: number }>('GET', '/user/notification/unread-count', u.headers)).unread;
const rows = async (userId: string, type?: string) =>
  (
    await t.database.query<{ n: number }>(
      `select count(*)::int as n from notifications where user_id = $1 ${type ? 'and type = $2' : ''}`,
      type ? [userId, type] : [userId],
    )
  )[0].n;

/** Post a load as the shipper and bid on it as the carrier; drained. */
async function bid(price = '2500'): Promise<{ load: Load; offer: Offer }> {
  const load = ok(await call<Load>('POST', '/loads', shipper.headers, loadBody()), 201);
  const offer = ok(await call<Offer>('POST', '/offers', carrier.headers, { loadId: load.id, priceSar: price }), 201);
  await drain();
  return { load, offer };
}

beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  shipper = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
  const phone = uniquePhone();
  const inv = ok(await call<TeamMember>('POST', '/account/team', shipper.headers, { phone, name: 'Noura Al-Qahtani', role: 'dispatcher' }), 201);
  dispatcher = await signUpViaApi(t.app, { phone, accountType: ACCOUNT_TYPE.carrier });
  ok(await call('POST', `/account/team/invitations/${inv.id}/accept`, dispatcher.headers));
  await drain();
});
afterAll(() => t?.close());

describe('notifications from the offer lifecycle', () => {
  it('a bid notifies the shipper and its team member with a link to the load; the bidding carrier is not notified', async () => {
    const before = { s: await unread(shipper), d: await unread(dispatcher), c: await unread(carrier) };
    const { load } = await bid('2500');
    const [n] = (await list(shipper)).items;
    expect(n).toMatchObject({ type: 'offer.created', category: 'offers', loadId: load.id, referenceId: load.referenceId, readAt: null });
    expect(n.params).toMatchObject({ priceSar: '2500.00' });
    expect(n.link).toBe(`/shippers/loads/${load.id}`);
    const [m] = (await list(dispatcher)).items;
    expect(m).toMatchObject({ type: 'offer.created', loadId: load.id, link: `/shippers/loads/${load.id}` });
    expect(await unread(shipper)).toBe(before.s + 1);
    expect(await unread(dispatcher)).toBe(before.d + 1);
    expect(await unread(carrier)).toBe(before.c);
    expect(await rows(carrier.id, 'offer.created')).toBe(0);
  });

  it('a counter by the shipper reaches the carrier (not the shipper); the carrier accepting reaches the shipper', async () => {
    const { load, offer } = await bid('3000');
    const shipperBefore = await rows(shipper.id);
    ok(await call('POST', '/offerRespond', shipper.headers, { offerId: offer.id, action: 'counter', priceSar: '2800' }));
    await drain();
    const [c] = (await list(carrier)).items;
    expect(c).toMatchObject({ type: 'offer.countered', loadId: load.id, link: `/carriers/loads/${load.id}` });
    expect(c.params).toMatchObject({ priceSar: '2800.00', by: 'shipper' });
    expect(await rows(shipper.id)).toBe(shipperBefore);

    ok(await call('POST', '/offerRespond', carrier.headers, { offerId: offer.id, action: 'accept' }));
    await drain();
    const types = (await list(shipper)).items.filter((x) => x.loadId === load.id).map((x) => x.type);
    expect(types).toContain('offer.accepted');
    expect(await rows(carrier.id, 'offer.accepted')).toBe(0);
  });

  it('a redelivered event inserts nothing and leaves the counter', async () => {
    await bid('2100');
    const [{ id: eventId }] = await t.database.query<{ id: string }>(`select id from outbox_events where type = 'offer.created' order by seq desc limit 1`);
    const before = { rows: await rows(shipper.id), unread: await unread(shipper) };
    const [e] = await t.database.query<{
      id: string;
      type: string;
      aggregate_type: string;
      aggregate_id: string;
      actor_id: string;
      data: Record<string, unknown>;
    }>('select id, type, aggregate_type, aggregate_id, actor_id, data from outbox_events where id = $1', [eventId]);
    const { notificationsHandler } = await import('../src/modules/notifications/notifications.service.ts');
    await t.app.container.db.transaction((tx) =>
      notificationsHandler.handle(tx, { ...e, aggregateType: e.aggregate_type, aggregateId: e.aggregate_id, actorId: e.actor_id } as never),
    );
    expect(await rows(shipper.id)).toBe(before.rows);
    expect(await unread(shipper)).toBe(before.unread);
  });
});

describe('a team member is not notified of its own action', () => {
  /** A user who acts for `owner` as an active team member with `role`. */
  const member = (owner: TestUser, role: 'admin') => createTeamMember(t, owner, role);
  const cancelledOf = async (userId: string, loadId: string) =>
    (
      await t.database.query<{ n: number }>(`select count(*)::int as n from notifications where user_id = $1 and type = 'load.cancelled' and load_id = $2`, [
        userId,
        loadId,
      ])
    )[0].n;

  it('the event names the user who acted; the owner acting notifies the member, the member acting notifies the owner and not itself', async () => {
    const owner = await createUser(t, { accountType: ACCOUNT_TYPE.shipper });
    const admin = await member(owner, 'admin');
    // load.cancelled goes to both sides of the load: here the side that acted
    const byOwner = ok(await call<Load>('POST', '/loads', owner.headers, loadBody()), 201);
    ok(await call('DELETE', `/loads/${byOwner.id}`, owner.headers));
    const byMember = ok(await call<Load>('POST', '/loads', admin.headers, loadBody()), 201);
    ok(await call('DELETE', `/loads/${byMember.id}`, admin.headers));
    await drain();
    const actors = await t.database.query<{ aggregate_id: string; actor_id: string }>(
      `select aggregate_id, actor_id from outbox_events where type = 'load.cancelled' and aggregate_id in ($1, $2)`,
      [byOwner.id, byMember.id],
    );
    expect(Object.fromEntries(actors.map((r) => [r.aggregate_id, r.actor_id]))).toEqual({ [byOwner.id]: owner.id, [byMember.id]: admin.id });
    expect([await cancelledOf(owner.id, byOwner.id), await cancelledOf(admin.id, byOwner.id)]).toEqual([0, 1]);
    expect([await cancelledOf(owner.id, byMember.id), await cancelledOf(admin.id, byMember.id)]).toEqual([1, 0]);
  });
});

describe('reading and marking', () => {
  it('pages by cursor (newest first), filters unread and by category', async () => {
    const all = await list(shipper, '?limit=2');
    expect(all.items).toHaveLength(2);
    expect(all.nextCursor).toBe(all.items[1].id);
    const next = await list(shipper, `?limit=2&cursor=${all.nextCursor}`);
    expect(next.items[0].id < all.items[1].id).toBe(true);
    expect((await list(shipper, '?category=billing')).items).toEqual([]);
    expect((await list(shipper, '?category=offers')).items.length).toBeGreaterThan(0);
  });

  it('marks some read, then all read; the counter follows and unread=1 lists only unread', async () => {
    const page = await list(shipper);
    const start = page.unread;
    expect(start).toBeGreaterThan(1);
    const target = page.items.filter((x) => !x.readAt)[0];
    const r = ok(await call<{ marked: number; unread: number }>('PATCH', '/user/notification', shipper.headers, { ids: [target.id] }));
    expect(r).toEqual({ marked: 1, unread: start - 1 });
    // again: already read, nothing moves
    expect(ok(await call<{ marked: number; unread: number }>('PATCH', '/user/notification', shipper.headers, { ids: [target.id] }))).toEqual({
      marked: 0,
      unread: start - 1,
    });
    expect((await list(shipper, '?unread=1')).items.map((x) => x.id)).not.toContain(target.id);
    ok(await call('PATCH', '/user/notification', shipper.headers, { all: true }));
    expect(await unread(shipper)).toBe(0);
    expect((await list(shipper, '?unread=1')).items).toEqual([]);
  });

  it('another user can neither read nor mark my notifications', async () => {
    await bid('1900');
    const mine = (await list(shipper)).items[0];
    expect((await list(carrier)).items.map((x) => x.id)).not.toContain(mine.id);
    const r = ok(await call<{ marked: number }>('PATCH', '/user/notification', carrier.headers, { ids: [mine.id] }));
    expect(r.marked).toBe(0);
    expect((await list(shipper)).items[0].readAt).toBeNull();
    expect((await call('GET', '/user/notification', {})).status).toBe(401);
  });

  it('30 concurrent mark-all-read calls leave the counter at 0, never negative, and count each row once', async () => {
    for (let i = 0; i < 3; i++) await bid(String(1500 + i));
    const before = await unread(shipper);
    expect(before).toBeGreaterThanOrEqual(3);
    const res = await Promise.all(
      Array.from({ length: 30 }, () => call<{ marked: number; unread: number }>('PATCH', '/user/notification', shipper.headers, { all: true })),
    );
    expect(res.every((r) => r.status === 200)).toBe(true);
    expect(res.reduce((s, r) => s + r.body.data.marked, 0)).toBe(before);
    expect(await unread(shipper)).toBe(0);
    const [c] = await t.database.query<{ unread: number; actual: number }>(
      // unread: read_at null and above the read watermark (issue 48)
      `select c.unread, (select count(*)::int from notifications n where n.user_id = c.user_id and n.read_at is null
                           and n.id > coalesce(c.read_upto, '00000000-0000-0000-0000-000000000000')) as actual
         from notification_counters c where c.user_id = $1`,
      [shipper.id],
    );
    expect(c).toEqual({ unread: 0, actual: 0 });
  });
});

describe('mark all read at scale: a read watermark, not an update of every row (issue 48)', () => {
  const HEAVY = 10_000;
  /** Shared buffers (hit + read) EXPLAIN (ANALYZE, BUFFERS) counts for one statement. */
  async function buffers(query: SQL): Promise<number> {
    const q = new PgDialect().sqlToQuery(query);
    const [row] = await t.database.query<{ 'QUERY PLAN': unknown }>(`explain (analyze, buffers, format json) ${q.sql}`, q.params);
    const raw = row['QUERY PLAN'];
    const plan = ((typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: Record<string, number> }[])[0].Plan;
    return (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
  }
  /** The buffers of the unread list's two statements (listOf): the watermark's lookup and the page. */
  const unreadListBuffers = async (userId: string) =>
    (await buffers(sql`select read_upto, read_upto_at from notification_counters where user_id = ${userId}`)) +
    (await buffers(listSql(userId, { unreadOnly: true, limit: 20 }, await watermarkOf(t.database.db, userId))));
  const readRows = async (userId: string) =>
    (await t.database.query<{ n: number }>('select count(*)::int as n from notifications where user_id = $1 and read_at is not null', [userId]))[0].n;

  it('10,000 unread: mark all writes no notification row, the unread list reads ≤ 50 buffers, a newer one is unread', async () => {
    // 10,000 unread notifications of the shipper made in the last minute (UUIDv7 ids: their first
    // 48 bits are the millisecond), counted as the handler counts them
    await t.database.query(
      `insert into notifications (id, user_id, account_id, type, category, event_id, reference_id, params, link, created_at)
       select (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, $1, $1, 'offer.created', 'offers',
              gen_random_uuid(), 'LD-0000001', '{"priceSar":"2500.00"}'::jsonb, '/shippers/my-loads', to_timestamp(ms / 1000.0)
       from generate_series(1, ${HEAVY}) i,
            lateral (select (extract(epoch from now()) * 1000)::bigint - 60000 + i as ms) m,
            lateral (select lpad(to_hex(m.ms), 12, '0') as h) x`,
      [shipper.id],
    );
    await t.database.query('update notification_counters set unread = unread + $2 where user_id = $1', [shipper.id, HEAVY]);
    await t.database.query('analyze notifications');
    const before = await unread(shipper);
    expect(before).toBeGreaterThanOrEqual(HEAVY);
    const readBefore = await readRows(shipper.id);

    const r = ok(await call<{ marked: number; unread: number }>('PATCH', '/user/notification', shipper.headers, { all: true }));
    expect(r).toEqual({ marked: before, unread: 0 });
    // the work: no notification row was written (each would have got a read_at)
    expect(await readRows(shipper.id)).toBe(readBefore);
    expect(await unread(shipper)).toBe(0);
    expect((await list(shipper, '?unread=1')).items).toEqual([]);
    const page = await list(shipper, '?limit=50');
    expect(page.items.every((n) => n.readAt !== null)).toBe(true);
    expect(await unreadListBuffers(shipper.id)).toBeLessThanOrEqual(50);
    // an old one marked again (read by the watermark): nothing moves
    const old = page.items[page.items.length - 1];
    expect(ok(await call('PATCH', '/user/notification', shipper.headers, { ids: [old.id] }))).toEqual({ marked: 0, unread: 0 });
    // a second mark-all has nothing to mark
    expect(ok(await call('PATCH', '/user/notification', shipper.headers, { all: true }))).toEqual({ marked: 0, unread: 0 });

    // a notification made after the mark-all is unread, listed, counted, and read on its own
    const { load } = await bid('2750');
    expect(await unread(shipper)).toBe(1);
    const fresh = (await list(shipper, '?unread=1')).items;
    expect(fresh.map((n) => [n.loadId, n.readAt])).toEqual([[load.id, null]]);
    expect(await unreadListBuffers(shipper.id)).toBeLessThanOrEqual(50);
    expect(ok(await call('PATCH', '/user/notification', shipper.headers, { ids: [fresh[0].id] }))).toEqual({ marked: 1, unread: 0 });
    expect((await list(shipper, '?unread=1')).items).toEqual([]);
  });

  it('retention takes off the count only what is unread above the watermark', async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const day = 86_400_000;
    const now = Date.now();
    const idAt = (ms: number) => {
      const hex = ms.toString(16).padStart(12, '0');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-${crypto.randomUUID().slice(-12)}`;
    };
    const insert = (ms: number) =>
      t.database.query(
        `insert into notifications (id, user_id, account_id, type, category, event_id, link, created_at) values ($1, $2, $2, 'offer.created', 'offers', $3, '/carriers/offers', $4)`,
        [idAt(ms), u.id, crypto.randomUUID(), new Date(ms).toISOString()],
      );
    await insert(now - 300 * day);
    await insert(now - 250 * day);
    await t.database.query(`insert into notification_counters (user_id, unread) values ($1, 2)`, [u.id]);
    expect(ok(await call('PATCH', '/user/notification', u.headers, { all: true }))).toEqual({ marked: 2, unread: 0 });
    await insert(now - 200 * day);
    await t.database.query('update notification_counters set unread = unread + 1 where user_id = $1', [u.id]);
    expect(await unread(u)).toBe(1);
    expect(await t.app.container.services.notifications.cleanup(new Date(now))).toBe(3);
    expect(await unread(u)).toBe(0);
  });
});

describe('preferences and e-mail', () => {
  const outbox = (to: string) => t.app.container.gateways.email.outbox!(to);
  const emailOf = async (id: string) => (await t.database.query<{ email: string }>('select email from users where id = $1', [id]))[0].email;

  it('defaults, saves (sms only where offered), refuses half quiet hours', async () => {
    const d = ok(await call<NotificationPreferences>('GET', '/user/notification/preferences', carrier.headers));
    expect(d).toEqual(defaultNotificationPreferences());
    const next = structuredClone(d);
    next.channels.account.sms = true;
    next.channels.offers.sms = true;
    next.quietFrom = '22:00';
    next.quietTo = '07:00';
    const saved = ok(await call<NotificationPreferences>('PUT', '/user/notification/preferences', carrier.headers, next));
    expect(saved.channels.offers.sms).toBe(true);
    expect(saved.channels.account.sms).toBe(false);
    expect(saved.quietFrom).toBe('22:00');
    const bad = await call('PUT', '/user/notification/preferences', carrier.headers, { ...next, quietTo: null });
    expect(bad.status).toBe(400);
    ok(await call('PUT', '/user/notification/preferences', carrier.headers, defaultNotificationPreferences()));
  });

  it('in-app off for a category: no row; e-mail still queued when on', async () => {
    const p = defaultNotificationPreferences();
    p.channels.offers.inApp = false;
    ok(await call('PUT', '/user/notification/preferences', shipper.headers, p));
    const before = await rows(shipper.id);
    await bid('2222');
    expect(await rows(shipper.id)).toBe(before);
    expect(await rows(dispatcher.profile.id, 'offer.created')).toBeGreaterThan(0);
    const q = await t.database.query<{ n: number }>(`select count(*)::int as n from notification_emails where user_id = $1 and sent_at is null`, [shipper.id]);
    expect(q[0].n).toBeGreaterThan(0);
    p.channels.offers.inApp = true;
    ok(await call('PUT', '/user/notification/preferences', shipper.headers, p));
  });

  it('e-mails: one per category per digest interval, the rest batched into the next; e-mail off sends none', async () => {
    const svc = t.app.container.services.notifications;
    await svc.flushEmails(new Date(Date.now() + 86_400_000)); // send whatever earlier tests queued
    const addr = await emailOf(shipper.id);
    const sentBefore = outbox(addr).length;
    const later = () => new Date(Date.now() + 16 * 60_000);
    // an e-mail of the category just went out: the next bid waits for the digest interval (15 min)
    await bid('2600');
    expect(await svc.flushEmails()).toBe(0);
    expect(await svc.flushEmails(later())).toBeGreaterThanOrEqual(1);
    expect(outbox(addr).length).toBe(sentBefore + 1);
    expect(outbox(addr)[0].text).toContain('/shippers/loads/');
    // two more bids within the interval: nothing now, one e-mail carrying both after it
    await bid('2700');
    await bid('2800');
    await svc.flushEmails();
    expect(outbox(addr).length).toBe(sentBefore + 1);
    await svc.flushEmails(later());
    expect(outbox(addr).length).toBe(sentBefore + 2);
    expect(outbox(addr)[0].subject).toMatch(/2 new notifications/);
    expect(outbox(addr)[0].text.match(/\/shippers\/loads\//g)).toHaveLength(2);

    // sent e-mails are pruned once the digest no longer needs them (two days)
    await t.database.query(`update notification_emails set sent_at = now() - interval '3 days' where user_id = $1 and sent_at is not null`, [shipper.id]);
    await svc.flushEmails();
    const kept = await t.database.query<{ n: number }>('select count(*)::int as n from notification_emails where user_id = $1 and sent_at is not null', [
      shipper.id,
    ]);
    expect(kept[0].n).toBe(0);

    const off = defaultNotificationPreferences();
    off.channels.offers.email = false;
    ok(await call('PUT', '/user/notification/preferences', shipper.headers, off));
    await bid('2900');
    await svc.flushEmails(new Date(Date.now() + 86_400_000));
    expect(outbox(addr).length).toBe(sentBefore + 2);
    ok(await call('PUT', '/user/notification/preferences', shipper.headers, defaultNotificationPreferences()));
  });

  it('quiet hours (Riyadh) hold an e-mail until they end, also across midnight', () => {
    // 23:30 Riyadh = 20:30 UTC
    const t0 = new Date('2026-11-26T20:30:00Z');
    expect(outsideQuietHours(t0, '22:00', '07:00').toISOString()).toBe('2026-11-27T04:00:00.000Z');
    expect(outsideQuietHours(t0, '08:00', '17:00')).toBe(t0);
    expect(outsideQuietHours(new Date('2026-11-26T10:15:00Z'), '13:00', '14:00').toISOString()).toBe('2026-11-26T11:00:00.000Z');
    const p = { ...defaultNotificationPreferences(), quietFrom: '22:00', quietTo: '07:00' };
    const last = new Date('2026-11-26T20:20:00Z');
    // digest after the last e-mail (20:35 UTC) lands in quiet hours: due at 07:00 Riyadh
    expect(emailDueAt(t0, { lastSent: last, pendingDue: null }, p).toISOString()).toBe('2026-11-27T04:00:00.000Z');
    const pending = new Date('2026-11-26T21:00:00Z');
    expect(emailDueAt(t0, { lastSent: last, pendingDue: pending }, p)).toBe(pending);
  });
});

describe('retention (NOTIFICATION_RETENTION_DAYS, the daily cleanup)', () => {
  /** A UUIDv7 made at `at` (the id's first 48 bits are its millisecond time). */
  const idAt = (at: Date) => {
    const hex = at.getTime().toString(16).padStart(12, '0');
    const rnd = crypto.randomUUID().replace(/-/g, '');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${rnd.slice(0, 3)}-8${rnd.slice(3, 6)}-${rnd.slice(6, 18)}`;
  };

  it('forgets notifications older than the retention, read or not, and takes the unread ones off the count', async () => {
    const u = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
    const day = 86_400_000;
    const now = new Date();
    const made = [
      { at: new Date(now.getTime() - 400 * day), read: false },
      { at: new Date(now.getTime() - 200 * day), read: true },
      { at: new Date(now.getTime() - 181 * day), read: false },
      { at: new Date(now.getTime() - 179 * day), read: false },
      { at: new Date(now.getTime() - 1 * day), read: true },
    ].map((m) => ({ ...m, id: idAt(m.at) }));
    for (const m of made) {
      await t.database.query(
        `insert into notifications (id, user_id, account_id, type, category, event_id, link, created_at, read_at)
         values ($1, $2, $2, 'offer.created', 'offers', $3, '/carriers/offers', $4, $5)`,
        [m.id, u.id, crypto.randomUUID(), m.at.toISOString(), m.read ? m.at.toISOString() : null],
      );
    }
    await t.database.query(`insert into notification_counters (user_id, unread) values ($1, 3)`, [u.id]);
    expect(await unread(u)).toBe(3);

    const deleted = await t.app.container.services.notifications.cleanup(now);
    expect(deleted).toBe(3);
    expect((await list(u)).items.map((n) => n.id)).toEqual([made[4].id, made[3].id]);
    // two of the three unread ones were past the retention
    expect(await unread(u)).toBe(1);
    // nothing more to forget
    expect(await t.app.container.services.notifications.cleanup(now)).toBe(0);
  });
});
