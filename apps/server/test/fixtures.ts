import { randomUUID } from 'node:crypto';
import { ACCOUNT_TYPE, PROFILE_STATUS, type AccountType } from '@masar/shared';
import { sessions, subscriptions, users } from '../src/db/schema/index.ts';
import { newId } from '../src/lib/ids.ts';
import { signAccessToken } from '../src/lib/tokens.ts';
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
