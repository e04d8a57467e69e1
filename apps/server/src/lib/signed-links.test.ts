import { describe, expect, it } from 'vitest';
import { signAccessToken } from './tokens.ts';
import { createSignedLinks } from './signed-links.ts';

const SECRET = 'a-test-secret-of-at-least-32-characters!';

describe('signed links', () => {
  it('opens for its purpose with subject, claims and expiry', async () => {
    const links = createSignedLinks(SECRET);
    const { token, expiresAt } = await links.sign('driver-job', 'driver-1', 3600, { owner: 'user-9' });
    const r = await links.check('driver-job', token);
    expect(r).toEqual({ ok: true, link: { subject: 'driver-1', claims: { owner: 'user-9' }, expiresAt } });
  });

  it('never opens for another purpose, another secret, or when tampered', async () => {
    const links = createSignedLinks(SECRET);
    const { token } = await links.sign('vendor-invite', 'user-1', 3600);
    expect(await links.check('driver-job', token)).toEqual({ ok: false, reason: 'invalid' });
    expect(await createSignedLinks(`${SECRET}-other`).check('vendor-invite', token)).toEqual({ ok: false, reason: 'invalid' });
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'user-2' })).toString('base64url');
    expect(await links.check('vendor-invite', `${h}.${forged}.${s}`)).toEqual({ ok: false, reason: 'invalid' });
    expect(await links.check('vendor-invite', 'not-a-token')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('an access token is not a link (separate key and type)', async () => {
    const { token } = await signAccessToken({ sub: 'user-1', sid: 's', typ: 'user', at: 1 }, SECRET, 600);
    expect(await createSignedLinks(SECRET).check('vendor-invite', token)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('expires', async () => {
    let t = Date.parse('2026-01-01T00:00:00Z');
    const links = createSignedLinks(SECRET, () => t);
    const { token, expiresAt } = await links.sign('vendor-invite', 'user-1', 60);
    expect(expiresAt).toBe('2026-01-01T00:01:00.000Z');
    t += 59_000;
    expect((await links.check('vendor-invite', token)).ok).toBe(true);
    t += 2_000;
    expect(await links.check('vendor-invite', token)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses reserved claim names', async () => {
    await expect(createSignedLinks(SECRET).sign('driver-job', 'd', 60, { sub: 'x' })).rejects.toThrow('reserved');
  });
});
