import { ACCOUNT_TYPE, type AccountType, type OtpPurpose, type Profile, type Tokens } from '@masar/shared';
import type { App } from '../../app.ts';

/**
 * Helpers for tests that want a real account made through the API (OTP by the sandbox SMS
 * outbox, sign-up, tokens). Tests that only need a signed-in user can use
 * test/fixtures.ts createUser, which writes to the database directly.
 */

let seq = 0;
/** A unique valid Saudi mobile number (+9665…) for one test run. */
export function uniquePhone(): string {
  seq += 1;
  const n = (process.pid * 7919 + Date.now() + seq * 104_729) % 100_000_000;
  return `+9665${String(n).padStart(8, '0')}`;
}

export const TEST_PASSWORD = 'Masar@123';

/** The newest 4-digit code the sandbox SMS gateway sent to `phone` (via GET /dev/outbox). */
export async function readOtp(app: App, phone: string): Promise<string> {
  const res = await app.inject({ url: `/api/v1/dev/outbox?phone=${encodeURIComponent(phone)}` });
  const items = res.json<{ data: { items: { body: string }[] } }>().data.items;
  const code = items[0]?.body.match(/\b(\d{4})\b/)?.[1];
  if (!code) throw new Error(`no OTP in the sandbox outbox for ${phone}`);
  return code;
}

/** POST /account/sendOtp and read the code back: `{ otpId, otp }`. */
export async function requestOtp(app: App, phone: string, purpose: OtpPurpose, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'POST', url: '/api/v1/account/sendOtp', payload: { phone, purpose }, headers });
  if (res.statusCode !== 200) throw new Error(`sendOtp ${res.statusCode}: ${res.body}`);
  const otpId = res.json<{ data: { otpId: string } }>().data.otpId;
  return { otpId, otp: await readOtp(app, phone) };
}

export interface SignedUpUser {
  phone: string;
  email: string;
  password: string;
  token: Tokens;
  profile: Profile;
  headers: Record<string, string>;
}

/** Sign up through the API (OTP round trip); the account is pending (status 1). */
export async function signUpViaApi(
  app: App,
  opts: { accountType?: AccountType; phone?: string; email?: string; password?: string } = {},
): Promise<SignedUpUser> {
  const phone = opts.phone ?? uniquePhone();
  const email = opts.email ?? `u${phone.slice(4)}@test.masar.sa`;
  const password = opts.password ?? TEST_PASSWORD;
  const { otpId, otp } = await requestOtp(app, phone, 'signup');
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/account/signUp',
    payload: {
      accountType: opts.accountType ?? ACCOUNT_TYPE.shipper,
      firstName: 'Noura',
      lastName: 'Al-Otaibi',
      companyName: 'Otaibi Cargo',
      email,
      phone,
      password,
      otpId,
      otp,
    },
  });
  if (res.statusCode !== 200) throw new Error(`signUp ${res.statusCode}: ${res.body}`);
  const data = res.json<{ data: { token: Tokens; profile: Profile } }>().data;
  return { phone, email, password, ...data, headers: { authorization: `Bearer ${data.token.accessToken}` } };
}
