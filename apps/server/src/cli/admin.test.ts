import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config.ts';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { ACCOUNT_TYPE } from '@masar/shared';
import { signUpViaApi, TEST_PASSWORD } from '../modules/auth/auth.testkit.ts';
import { createUser } from '../../test/fixtures.ts';
import { AdminError, describeChange, parseAdminArgs, setAccountStatus as setStatus, type AdminAction } from './admin.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_PER_IP_PER_MIN: 0, OTP_RATE_PER_IP_PER_10MIN: 0 });
});
afterAll(() => t?.close());
const setAccountStatus = (_db: unknown, action: AdminAction, phone: string) => setStatus(t.app.container.services.accounts, action, phone);
const listPending = (_db: unknown) => t.app.container.services.accounts.listPending();

const signIn = (phone: string) => t.app.inject({ method: 'POST', url: '/api/v1/account/signIn', payload: { phone, password: TEST_PASSWORD } });

describe('admin command arguments', () => {
  it('parses actions and normalises the phone', () => {
    expect(parseAdminArgs(['approve', '--phone', '0501234567'])).toEqual({ action: 'approve', phone: '+966501234567' });
    expect(parseAdminArgs(['delete', '-p', '+966 50 123 4567'])).toEqual({ action: 'delete', phone: '+966501234567' });
    expect(parseAdminArgs(['pending'])).toEqual({ action: 'pending' });
    expect(parseAdminArgs(['records-backfill'])).toEqual({ action: 'records-backfill' });
    expect(parseAdminArgs(['dashboards-backfill'])).toEqual({ action: 'dashboards-backfill' });
    expect(parseAdminArgs(['--help'])).toEqual({ action: 'help' });
    expect(parseAdminArgs(['reject-document', '-p', '0501234567', '--document', 'vat_certificate', '--reason', ' Unreadable scan '])).toEqual({
      action: 'reject-document',
      phone: '+966501234567',
      document: 'vat_certificate',
      reason: 'Unreadable scan',
    });
    expect(() => parseAdminArgs(['reject-document', '-p', '0501234567', '--document', 'passport', '--reason', 'x'])).toThrow(/--document is one of/);
    expect(() => parseAdminArgs(['reject-document', '-p', '0501234567', '--document', 'vat_certificate'])).toThrow(/--reason/);
  });

  it('parses escrow settlements (issue 50) and refuses unclear ones', () => {
    const load = '0190f0f0-0000-7000-8000-000000000001';
    expect(parseAdminArgs(['escrow-settle', '--load', load, '--settle', 'partial', '--sar', '1150.00', '--reason', 'Two pallets damaged'])).toEqual({
      action: 'escrow-settle',
      loadId: load,
      input: { kind: 'partial', carrierSar: '1150.00', reason: 'Two pallets damaged' },
    });
    expect(parseAdminArgs(['ledger-balance'])).toEqual({ action: 'ledger-balance' });
    for (const bad of [
      ['escrow-settle', '--load', 'LD-1', '--settle', 'full', '--reason', 'ok then'],
      ['escrow-settle', '--load', load, '--settle', 'partial', '--reason', 'no amount'],
      ['escrow-settle', '--load', load, '--settle', 'full', '--sar', '10', '--reason', 'amount on full'],
      ['escrow-settle', '--load', load, '--settle', 'full'],
    ])
      expect(() => parseAdminArgs(bad)).toThrow(expect.objectContaining({ exitCode: 2 }));
  });

  it('parses promo codes and refuses unclear ones', async () => {
    const cmd = parseAdminArgs(['promo', '--code', 'summer25', '--percent', '25', '--expires', '2026-12-31', '--max', '100', '--plans', 'carrier-monthly']);
    expect(cmd).toEqual({
      action: 'promo',
      code: 'SUMMER25',
      kind: 'percent',
      value: '25',
      expiresAt: new Date('2026-12-31T20:59:59Z'),
      maxRedemptions: 100,
      planCodes: ['carrier-monthly'],
    });
    expect(parseAdminArgs(['promo', '--code', 'FIFTY', '--sar', '49.5'])).toMatchObject({ kind: 'fixed', value: '49.5', planCodes: null });
    for (const bad of [
      ['promo', '--code', 'X', '--percent', '10'],
      ['promo', '--code', 'OK10', '--percent', '101'],
      ['promo', '--code', 'OK10', '--percent', '10', '--sar', '5'],
      ['promo', '--code', 'OK10', '--sar', '-5'],
      ['promo', '--code', 'OK10', '--percent', '10', '--plans', 'gold'],
      ['promo', '--code', 'OK10', '--percent', '10', '--expires', 'tomorrow'],
    ])
      expect(() => parseAdminArgs(bad)).toThrow(AdminError);
    // what the command writes is what checkout applies
    if (cmd.action !== 'promo') throw new Error('not a promo');
    await t.app.container.services.billing.upsertPromo(cmd);
    const carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier, plan: false });
    const quote = await t.app.inject({
      method: 'POST',
      url: '/api/v1/promo/check',
      headers: carrier.headers,
      payload: { code: 'SUMMER25', planCode: 'carrier-monthly' },
    });
    expect(quote.json().data).toMatchObject({ discountSar: '49.75', amountSar: '149.25' });
  });

  it.each([
    [[]],
    [['promote', '--phone', '0501234567']],
    [['approve']],
    [['approve', '--phone', '12345']],
    [['approve', 'suspend', '--phone', '0501234567']],
    [['approve', '--phne', 'x']],
  ])('refuses %j with exit code 2', (argv) => {
    expect(() => parseAdminArgs(argv)).toThrow(AdminError);
    try {
      parseAdminArgs(argv);
    } catch (e) {
      expect((e as AdminError).exitCode).toBe(2);
    }
  });

  it('prints the usage and exits 2 from the real command line', () => {
    let status = 0;
    let stderr = '';
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/admin.ts', 'promote'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      status = (e as { status: number }).status;
      stderr = (e as { stderr: string }).stderr;
    }
    expect(status).toBe(2);
    expect(stderr).toContain('Unknown action "promote"');
    expect(stderr).toContain('npm run admin -- approve|reject|suspend|delete --phone');
  });
});

describe('setAccountStatus', () => {
  it('approves: status 2, first-approved, and the approval shows once in the profile', async () => {
    const u = await signUpViaApi(t.app);
    expect((await listPending(t.database.db)).map((r) => r.phone)).toContain(u.phone);
    const change = await setAccountStatus(t.database.db, 'approve', `0${u.phone.slice(4)}`);
    expect(change).toMatchObject({ phone: u.phone, from: 1, to: 2 });
    expect(describeChange('approve', change)).toBe(`Approved ${u.phone} — Noura Al-Otaibi (Otaibi Cargo), shipper: status pending → approved.`);
    expect((await listPending(t.database.db)).map((r) => r.phone)).not.toContain(u.phone);

    const first = await signIn(u.phone);
    expect(first.json().data.profile).toMatchObject({ status: 2, isFirstTimeApproved: true, isFirstTimeLoginAfterApproved: true });
    expect((await signIn(u.phone)).json().data.profile.isFirstTimeLoginAfterApproved).toBe(false);
    // approving again changes nothing
    const again = await setAccountStatus(t.database.db, 'approve', u.phone);
    expect(describeChange('approve', again)).toContain('(it already was)');
    expect((await signIn(u.phone)).json().data.profile.isFirstTimeLoginAfterApproved).toBe(false);
  });

  it('rejects (5) and suspends (3)', async () => {
    const r = await signUpViaApi(t.app);
    await setAccountStatus(t.database.db, 'reject', r.phone);
    expect((await signIn(r.phone)).json().data.profile).toMatchObject({ status: 5, statusText: 'Rejected' });

    const s = await signUpViaApi(t.app);
    await setAccountStatus(t.database.db, 'suspend', s.phone);
    const res = await signIn(s.phone);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('ACCOUNT_SUSPENDED');
    // reactivating is not a first approval: no second approval dialog
    await setAccountStatus(t.database.db, 'approve', s.phone);
    expect((await signIn(s.phone)).json().data.profile.isFirstTimeLoginAfterApproved).toBe(true);
    await setAccountStatus(t.database.db, 'suspend', s.phone);
    await setAccountStatus(t.database.db, 'approve', s.phone);
    expect((await signIn(s.phone)).json().data.profile).toMatchObject({ status: 2, isFirstTimeLoginAfterApproved: false });
  });

  it('deletes (4) and revokes every session', async () => {
    const u = await signUpViaApi(t.app);
    await signIn(u.phone);
    const change = await setAccountStatus(t.database.db, 'delete', u.phone);
    expect(change).toMatchObject({ to: 4, sessionsRevoked: 2 });
    expect(describeChange('delete', change)).toContain('2 session(s) revoked');
    const me = await t.app.inject({ url: '/api/v1/accountDetails', headers: u.headers });
    expect(me.statusCode).toBe(403);
    expect(me.json().code).toBe('ACCOUNT_DELETED');
    const refresh = await t.app.inject({ method: 'POST', url: '/api/v1/generateToken', payload: { refToken: u.token.refreshToken } });
    expect(refresh.statusCode).toBe(401);
    expect((await signIn(u.phone)).json().code).toBe('ACCOUNT_DELETED');
  });

  it('refuses an unknown phone', async () => {
    await expect(setAccountStatus(t.database.db, 'approve', '+966599999999')).rejects.toThrow('No account with phone +966599999999.');
  });
});
