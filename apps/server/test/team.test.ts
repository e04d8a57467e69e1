import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ACCOUNT_TYPE, type Load, type Profile, type TeamInvitationList, type TeamList, type TeamMember } from '@masar/shared';
import { queryRows } from '../src/lib/sql.ts';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import { signUpViaApi, TEST_PASSWORD, uniquePhone, type SignedUpUser } from '../src/modules/auth/auth.testkit.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, type TestUser } from './fixtures.ts';

/**
 * Team members (issue 8), on PGlite and PostgreSQL: invite by phone → SMS in the sandbox outbox →
 * the invitee signs up, sees and accepts the invitation → acts for the owner (a load they post is
 * the owner's); roles enforced by the auth plugin (TEAM_ROLE_FORBIDDEN); a role change and a
 * removal count on the member's next request; duplicate / own / taken phones refused; the invite
 * is idempotent.
 */
let t: TestContext;
let owner: TestUser;
const ownerCompany = 'Najd Logistics';
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { accountType: ACCOUNT_TYPE.shipper, companyName: ownerCompany });
});
afterAll(async () => t?.close());

type Res<T> = {
  status: number;
  body: { data: T; code?: string; message: string; errors?: { path: string; message: string }[] };
  headers: Record<string, unknown>;
};
const call = async <T = unknown>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  u: { headers: Record<string, string> },
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<Res<T>> => {
  const r = await t.app.inject({ method, url: `/api/v1${url}`, headers: { ...u.headers, ...headers }, payload: payload as object });
  return { status: r.statusCode, body: r.json(), headers: r.headers };
};
const smsTo = async (phone: string) =>
  (await t.app.inject({ url: `/api/v1/dev/outbox?phone=${encodeURIComponent(phone)}` })).json<{ data: { items: { body: string }[] } }>().data.items;

/** Invite `phone` as `role` into `by`'s team (201 expected). */
async function invite(by: { headers: Record<string, string> }, phone: string, role: string, key = `inv-${phone}-${role}`) {
  const r = await call<TeamMember>('POST', '/account/team', by, { phone, name: 'Faisal Al-Harbi', role }, { 'idempotency-key': key });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data;
}
/** Sign up `phone`, accept its pending invitation `id` and return the member's session. */
async function join(phone: string, id: string): Promise<SignedUpUser> {
  const m = await signUpViaApi(t.app, { phone, accountType: ACCOUNT_TYPE.carrier });
  const acc = await call<TeamMember>('POST', `/account/team/invitations/${id}/accept`, m);
  expect(acc.status, JSON.stringify(acc.body)).toBe(200);
  return m;
}

describe('invite → SMS → sign up → accept → act for the owner', () => {
  const phone = uniquePhone();
  let member: SignedUpUser;
  let inviteId: string;

  it('invites by phone (local format accepted, E.164 stored), idempotently, and sends an SMS with a sign-in link', async () => {
    const local = `0${phone.slice(4)}`;
    const send = () =>
      call<TeamMember>('POST', '/account/team', owner, { phone: local, name: 'Faisal Al-Harbi', role: 'dispatcher' }, { 'idempotency-key': 'team-1' });
    const first = await send();
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ phone, role: 'dispatcher', status: 'invited', memberUserId: null });
    inviteId = first.body.data.id;
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(inviteId);
    const list = await call<TeamList>('GET', '/account/team', owner);
    expect(list.body.data.items.filter((m) => m.phone === phone)).toHaveLength(1);
    // the SMS is an outbox handler of team.member_invited: it goes once the invite committed
    await expect.poll(async () => (await smsTo(phone)).length, { timeout: 15_000 }).toBe(1);
    const sms = await smsTo(phone);
    expect(sms[0].body).toContain(ownerCompany);
    expect(sms[0].body).toContain(`/login?phone=${encodeURIComponent(phone)}`);
  });

  it('refuses the same phone twice, the owner’s own phone and a bad phone, with localized codes', async () => {
    const dup = await call('POST', '/account/team', owner, { phone, name: 'X', role: 'viewer' }, { 'idempotency-key': 'team-dup' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('TEAM_MEMBER_EXISTS');
    const own = await call('POST', '/account/team', owner, { phone: owner.phone, name: 'Me', role: 'admin' }, { language: 'ar' });
    expect(own.status).toBe(409);
    expect(own.body.code).toBe('TEAM_OWN_PHONE');
    expect(own.body.message).toBe('هذا رقم جوال مالك الحساب نفسه.');
    const bad = await call('POST', '/account/team', owner, { phone: '12345', name: 'X', role: 'boss' });
    expect(bad.status).toBe(400);
    expect((bad.body.errors ?? []).map((e) => e.path).sort()).toEqual(['phone', 'role']);
  });

  it('the invitee signs up, sees the invitation addressed to their phone and accepts; their profile is the owner’s account', async () => {
    member = await signUpViaApi(t.app, { phone, accountType: ACCOUNT_TYPE.carrier });
    const inv = await call<TeamInvitationList>('GET', '/account/team/invitations', member);
    expect(inv.status).toBe(200);
    expect(inv.body.data.items).toEqual([expect.objectContaining({ id: inviteId, role: 'dispatcher', ownerCompanyName: ownerCompany })]);
    // nobody else can accept it
    const stranger = await createUser(t);
    expect((await call('POST', `/account/team/invitations/${inviteId}/accept`, stranger)).status).toBe(404);

    const acc = await call<TeamMember>('POST', `/account/team/invitations/${inviteId}/accept`, member);
    expect(acc.status).toBe(200);
    expect(acc.body.data).toMatchObject({ status: 'active', memberUserId: member.profile.id });
    const me = await call<Profile>('GET', '/accountDetails', member);
    expect(me.body.data).toMatchObject({
      id: owner.id,
      accountType: ACCOUNT_TYPE.shipper,
      companyName: ownerCompany,
      team: { memberId: inviteId, role: 'dispatcher' },
    });
    // a fresh sign-in answers the same acting profile
    const signIn = await t.app.inject({ method: 'POST', url: '/api/v1/account/signIn', payload: { phone, password: TEST_PASSWORD } });
    expect(signIn.json<{ data: { profile: Profile } }>().data.profile).toMatchObject({ id: owner.id, team: { role: 'dispatcher' } });
    expect((await call('GET', '/account/team/invitations', member)).body.data).toEqual({ items: [] });
  });

  it('a dispatcher posts a load that belongs to the owner and sees it in the owner’s loads', async () => {
    const r = await call<Load>('POST', '/loads', member, loadBody(), { 'idempotency-key': 'member-load-1' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data.shipperId).toBe(owner.id);
    const mine = await call<{ items: { id: string }[] }>('GET', '/my-loads', owner);
    expect(mine.body.data.items.map((l) => l.id)).toContain(r.body.data.id);
    const theirs = await call<{ items: { id: string }[] }>('GET', '/my-loads', member);
    expect(theirs.body.data.items.map((l) => l.id)).toContain(r.body.data.id);
  });

  it('a dispatcher is refused billing, the team and account settings (403 TEAM_ROLE_FORBIDDEN, localized)', async () => {
    for (const [method, url, body] of [
      ['GET', '/subscriptions', undefined],
      ['GET', '/account/team', undefined],
      ['POST', '/account/team', { phone: uniquePhone(), name: 'X', role: 'admin' }],
      ['PUT', '/account/contact-info', { phone: { share: false }, email: { share: false }, whatsapp: { share: false }, officePhone: { share: false } }],
      ['PATCH', '/account', { firstName: 'Hacker' }],
    ] as const) {
      const r = await call(method, url, member, body, { language: 'ar' });
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(r.body.code).toBe('TEAM_ROLE_FORBIDDEN');
      expect(r.body.message).toBe('دورك في الفريق لا يسمح بهذا الإجراء. اطلب ذلك من مسؤول الحساب.');
    }
    // the address book is part of posting loads
    expect((await call('GET', '/account/addresses', member)).status).toBe(200);
  });

  it('a role change counts on the next request: a viewer reads but cannot post', async () => {
    const ch = await call<TeamMember>('PATCH', `/account/team/${inviteId}`, owner, { role: 'viewer' });
    expect(ch.status).toBe(200);
    expect(ch.body.data.role).toBe('viewer');
    const post = await call('POST', '/loads', member, loadBody(), { 'idempotency-key': 'member-load-2' });
    expect(post.status).toBe(403);
    expect(post.body.code).toBe('TEAM_ROLE_FORBIDDEN');
    expect((await call('GET', '/my-loads', member)).status).toBe(200);
    // back to admin: the team is theirs to manage too
    await call('PATCH', `/account/team/${inviteId}`, owner, { role: 'admin' });
    expect((await call('GET', '/account/team', member)).status).toBe(200);
    const events = await queryRows<{ type: string; actor_user_id: string }>(
      t.database.db,
      sql`select type, actor_user_id from team_events where team_member_id = ${inviteId} order by created_at, type`,
    );
    expect(events.map((e) => e.type)).toEqual(['invited', 'accepted', 'role_changed', 'role_changed']);
    expect(events.find((e) => e.type === 'accepted')?.actor_user_id).toBe(member.profile.id);
  });

  it('another company cannot invite an active member; an admin member’s invitation is attributed to them', async () => {
    const other = await createUser(t);
    const taken = await call('POST', '/account/team', other, { phone, name: 'X', role: 'viewer' });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('TEAM_PHONE_IN_OTHER_TEAM');
    const byMember = await invite(member, uniquePhone(), 'viewer');
    const [row] = await queryRows<{ owner_id: string; invited_by: string }>(
      t.database.db,
      sql`select owner_id, invited_by from team_members where id = ${byMember.id}`,
    );
    expect(row).toEqual({ owner_id: owner.id, invited_by: member.profile.id });
  });

  it('removal revokes the member’s sessions at once; signing in again is their own account', async () => {
    const del = await call<TeamMember>('DELETE', `/account/team/${inviteId}`, owner);
    expect(del.status).toBe(200);
    expect(del.body.data.status).toBe('removed');
    expect((await call('GET', '/my-loads', member)).status).toBe(401);
    expect((await call('GET', '/accountDetails', member)).status).toBe(401);
    const signIn = await t.app.inject({ method: 'POST', url: '/api/v1/account/signIn', payload: { phone, password: TEST_PASSWORD } });
    const p = signIn.json<{ data: { profile: Profile } }>().data.profile;
    expect(p.id).toBe(member.profile.id);
    expect(p.team ?? null).toBeNull();
    expect((await call('DELETE', `/account/team/${inviteId}`, owner)).status).toBe(404);
  });
});

describe('decline, leave, one team at a time', () => {
  it('an invitee declines; a member leaves and is back on their own account at the next request', async () => {
    const p1 = uniquePhone();
    const inv = await invite(owner, p1, 'viewer');
    const u = await signUpViaApi(t.app, { phone: p1 });
    expect((await call('POST', `/account/team/invitations/${inv.id}/decline`, u)).status).toBe(200);
    expect((await call('POST', `/account/team/invitations/${inv.id}/accept`, u)).status).toBe(404);

    const p2 = uniquePhone();
    const inv2 = await invite(owner, p2, 'dispatcher');
    const m = await join(p2, inv2.id);
    expect((await call<Profile>('GET', '/accountDetails', m)).body.data.id).toBe(owner.id);
    expect((await call('POST', '/account/team/leave', m)).status).toBe(200);
    const me = await call<Profile>('GET', '/accountDetails', m);
    expect(me.body.data.id).toBe(m.profile.id);
    expect((await call('POST', '/account/team/leave', m)).status).toBe(404);
  });

  it('a viewer member changes their own password and signs out (their own session, whatever the role)', async () => {
    const p = uniquePhone();
    const inv = await invite(owner, p, 'viewer');
    const m = await join(p, inv.id);
    const pw = await call('POST', '/account/changePassword', m, { oldPassword: TEST_PASSWORD, newPassword: 'Masar@456', confirmPassword: 'Masar@456' });
    expect(pw.status, JSON.stringify(pw.body)).toBe(200);
    const out = await call('POST', '/account/logout', m, {});
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect((await call('GET', '/my-loads', m)).status).toBe(401);
  });

  it('an owner with members cannot join another team', async () => {
    const other = await signUpViaApi(t.app);
    await invite(other, uniquePhone(), 'viewer');
    const inv = await call<TeamMember>('POST', '/account/team', owner, { phone: other.phone, name: 'Other', role: 'viewer' });
    expect(inv.status).toBe(409);
    expect(inv.body.code).toBe('TEAM_PHONE_IN_OTHER_TEAM');
  });
});
