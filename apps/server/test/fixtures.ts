import { randomUUID } from 'node:crypto';
import { ACCOUNT_TYPE, PROFILE_STATUS, type AccountType, type Conversation } from '@masar/shared';
import { sessions, subscriptions, users } from '../src/db/schema/index.ts';
import { newId } from '../src/lib/ids.ts';
import { signAccessToken } from '../src/lib/tokens.ts';
import { loadBody } from '../src/modules/loads/loads.testkit.ts';
import type { TestContext } from './helpers.ts';

export interface TestUser {
  id: string;
  phone: string;
  accountType: AccountType;
  accessToken: string;
  /** headers for app.inject */
  headers: Record<string, string>;
}

let phoneSeq = 0;
/** A unique valid Saudi mobile number for tests (+96655xxxxxxx). */
export function testPhone(): string {
  phoneSeq += 1;
  const n = (Date.now() % 1_000_000) * 10 + (phoneSeq % 10) + Math.floor(Math.random() * 1000) * 10_000_000;
  return `+9665${String(5_0000000 + (n % 1_0000000)).padStart(8, '0')}`;
}

/**
 * Insert a user straight into the database (no OTP round trip) with a session and an access
 * token. Defaults: approved, with an active plan. Password hash is a placeholder: tests that
 * sign in by password use the signUp API instead.
 */
export async function createUser(
  t: TestContext,
  opts: { accountType?: AccountType; approved?: boolean; plan?: boolean; status?: number; companyName?: string } = {},
): Promise<TestUser> {
  const id = newId();
  const accountType = opts.accountType ?? ACCOUNT_TYPE.shipper;
  const phone = testPhone();
  const db = t.database.db;
  await db.insert(users).values({
    id,
    accountType,
    firstName: 'Test',
    lastName: `User${accountType}`,
    companyName: opts.companyName ?? `Test Co ${id.slice(-6)}`,
    email: `${id}@test.masar.sa`,
    phone,
    passwordHash: 'x',
    status: opts.status ?? (opts.approved === false ? PROFILE_STATUS.pending : PROFILE_STATUS.approved),
    isFirstTimeApproved: opts.approved !== false,
  });
  if (opts.plan !== false) await db.insert(subscriptions).values({ id: newId(), userId: id, planCode: 'test', planName: 'Test plan', active: true });
  const sid = newId();
  await db.insert(sessions).values({ id: sid, familyId: sid, userId: id, refreshHash: randomUUID(), expiresAt: new Date(Date.now() + 86_400_000) });
  const { token } = await signAccessToken({ sub: id, sid, typ: 'user', at: accountType }, t.config.jwtSecret, 3600);
  return { id, phone, accountType, accessToken: token, headers: { authorization: `Bearer ${token}` } };
}

/** The answer of an API call in tests: status, the JSON envelope and the response headers. */
export interface ApiRes<T> {
  status: number;
  body: { data: T; code?: string; message: string; errors?: { path: string; message: string }[] };
  headers: Record<string, unknown>;
}

/**
 * `call(method, url, headers, payload?)` against `/api/v1` of a test app through `app.inject`,
 * and `ok(res, status = 200)` that asserts the status (the body is the failure message) and
 * returns `data`. One copy for every integration test. `ctx` is read per call, so a test file
 * may create its app in `beforeAll`: `const { call, ok } = apiCaller(() => t)`.
 */
export function apiCaller(ctx: () => Pick<TestContext, 'app'>) {
  const call = async <T = unknown>(method: string, url: string, headers: Record<string, string>, payload?: unknown): Promise<ApiRes<T>> => {
    const r = await ctx().app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers, payload: payload as object });
    return { status: r.statusCode, body: r.json(), headers: r.headers };
  };
  const ok = <T>(r: ApiRes<T>, status = 200): T => {
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  return { call, ok };
}

/** A user (of `owner`'s account type) who acts for `owner` as an active team member with `role`. */
export async function createTeamMember(t: TestContext, owner: TestUser, role: 'admin' | 'viewer'): Promise<TestUser> {
  const m = await createUser(t, { accountType: owner.accountType });
  await t.database.query(
    `insert into team_members (id, owner_id, member_user_id, phone, name, role, status, invited_by) values ($1, $2, $3, $4, 'M', $5, 'active', $2)`,
    [newId(), owner.id, m.id, m.phone, role],
  );
  return m;
}

/** `shipper` posts a load, `carrier` offers on it and opens the conversation about it (through the API). */
export async function loadConversation(t: TestContext, shipper: TestUser, carrier: TestUser): Promise<{ loadId: string; conv: Conversation }> {
  const { call, ok } = apiCaller(() => t);
  const loadId = ok<{ id: string }>(await call('POST', '/loads', shipper.headers, loadBody()), 201).id;
  ok(await call('POST', '/offers', carrier.headers, { loadId, priceSar: '2500' }), 201);
  const conv = ok<Conversation>(await call('POST', '/chat/conversations', carrier.headers, { loadId }), 201);
  return { loadId, conv };
}

/** A 1×1 PNG: a proof photo, a logo or a document scan in upload tests. */
export const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** A minimal PDF accepted by the upload checks (magic bytes `%PDF-`). */
export const PDF_MINIMAL = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

const TYPE_BY_EXT: Record<string, string> = { csv: 'text/csv', png: 'image/png', jpg: 'image/jpeg', pdf: 'application/pdf' };

/**
 * A multipart/form-data body for `app.inject` (`payload`) or fetch: text `fields` and an optional
 * `file` under the field name `file`; its Content-Type is `type`, else guessed from the extension.
 */
export function multipart(fields: Record<string, string | number>, file?: { name: string; data: Buffer | string; type?: string }) {
  const boundary = `----masar${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    const type = file.type ?? TYPE_BY_EXT[file.name.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream';
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${type}\r\n\r\n`));
    parts.push(Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
