import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { hasChromium, openBrowser, startServer, type RunningServer } from './harness';
import { REFRESH_COOKIE, REFRESH_COOKIE_PATH } from '../apps/server/src/modules/auth/auth.routes.ts';
import { DEMO, signIn, WAIT } from './helpers';

/**
 * A reload that cancels a token regeneration in flight does not sign the user out. The server had
 * rotated the refresh token, but its answer (and the new cookie) never reached the browser, which
 * still holds the retired one. Within the reuse interval (REFRESH_REUSE_GRACE_SECONDS, 30 s) the
 * server answers it with a new token of the same session instead of revoking the session as
 * stolen (apps/server/src/modules/auth/README.md).
 */
describe.skipIf(!hasChromium)('a reload during a token regeneration', () => {
  let srv: RunningServer;
  let ctx: BrowserContext;

  beforeAll(async () => {
    srv = await startServer();
    ctx = await openBrowser();
  });
  afterAll(async () => {
    await ctx?.close();
    await srv?.stop();
  });

  const refreshCookie = async () => (await ctx.cookies(`${srv.url}${REFRESH_COOKIE_PATH}`)).find((c) => c.name === REFRESH_COOKIE)?.value;

  it('keeps the carrier signed in on the same page, with a working session', async () => {
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    await signIn(page, srv.url, DEMO.carrier, '/carriers/load-search');
    const held = await refreshCookie();
    expect(held).toBeTruthy();

    // the regeneration whose answer was lost: the server rotates, the browser never hears of it
    const lost = await fetch(`${srv.url}${REFRESH_COOKIE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${REFRESH_COOKIE}=${held}` },
      body: '{}',
    });
    expect(lost.status).toBe(200);
    expect(await refreshCookie()).toBe(held);

    const regenerated = page.waitForResponse((r) => new URL(r.url()).pathname === REFRESH_COOKIE_PATH, { timeout: WAIT });
    // counts what public/boot.js hands the app (window.__masarBootToken), before any page script runs
    await page.addInitScript({
      content: `Object.defineProperty(window, '__masarBootToken', { configurable: true, get() { return this.__held; }, set(v) { if (v) window.__bootRegenerations = (window.__bootRegenerations || 0) + 1; this.__held = v; } });`,
    });
    const regenerations: string[] = [];
    const count = (r: { url(): string }) => void (new URL(r.url()).pathname === REFRESH_COOKIE_PATH && regenerations.push(r.url()));
    page.on('request', count);
    await page.reload();
    expect((await regenerated).status()).toBe(200);
    await expect.poll(() => page.locator('[data-testid^=load-row-]').count(), { timeout: WAIT }).toBeGreaterThan(0);
    page.off('request', count);
    // one regeneration per page load, and public/boot.js sent it (issue 23: while the modules were
    // still on their way); the app adopted its answer instead of asking again
    expect(regenerations).toHaveLength(1);
    expect(await page.evaluate('window.__bootRegenerations')).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/carriers/load-search');
    // the browser holds a new token of the session, and it works on the next page too
    const next = await refreshCookie();
    expect(next).toBeTruthy();
    expect(next).not.toBe(held);
    const again = page.waitForResponse((r) => new URL(r.url()).pathname === REFRESH_COOKIE_PATH, { timeout: WAIT });
    await page.goto(`${srv.url}/carriers/my-shipments`);
    expect((await again).status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/carriers/my-shipments');
  });
});
