import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { hasChromium, openBrowser, startServer, type RunningServer } from './harness';
import { appTookOver, eventually, WAIT } from './helpers';

/**
 * Issue 22, deploys do not blank pages: a tab that runs the previous build asks for a chunk the
 * deploy removed. The server answers 404 (never index.html), and the app reloads once, on the same
 * URL; if the chunk is still missing after that reload it does not reload again.
 */
describe.skipIf(!hasChromium)('a deploy under an open tab', () => {
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

  it('answers a missing chunk with 404, reloads once on the same URL, and not again', async () => {
    const gone = await fetch(`${srv.url}/assets/LoginPage-OldBuild1.js`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).not.toMatch(/text\/html/);

    const page = ctx.pages()[0] ?? (await ctx.newPage());
    // Record each vite:preloadError and whether the app took it (preventDefault = it reloads). A
    // microtask, not a timer: it runs once every listener has seen the event (Vite dispatches it
    // from script) and before the reload can unload the page, which a timer on a loaded machine
    // may not (the first, reloading, event was then never recorded).
    await page.addInitScript(() => {
      window.addEventListener('vite:preloadError', (e) =>
        queueMicrotask(() => {
          const seen = JSON.parse(sessionStorage.getItem('e2e.preloadErrors') ?? '[]') as boolean[];
          sessionStorage.setItem('e2e.preloadErrors', JSON.stringify([...seen, e.defaultPrevented]));
        }),
      );
    });
    let loads = 0;
    page.on('load', () => loads++);
    await page.goto(srv.url);
    await page.locator('a[href="/login"]').first().waitFor({ timeout: WAIT });
    // a client-side navigation, so the app's own (not the prerendered page's) link
    await appTookOver(page);

    // the deploy: the login page's chunk of the build this tab runs is gone
    const assets = join(srv.dataDir, 'web-dist/assets');
    const manifest = (await import(join(srv.dataDir, 'web-dist/.vite/manifest.json'), { with: { type: 'json' } })).default as Record<string, { file: string }>;
    const chunk = manifest['src/features/auth/pages/LoginPage.tsx'].file.replace('assets/', '');
    for (const f of [chunk, `${chunk}.br`, `${chunk}.gz`]) rmSync(join(assets, f), { force: true });

    await page.locator('a[href="/login"]').first().click();
    const errors = () => page.evaluate(() => JSON.parse(sessionStorage.getItem('e2e.preloadErrors') ?? '[]') as boolean[]);
    await eventually(async () => expect((await errors()).length).toBeGreaterThanOrEqual(2));
    // the first failure reloaded the page (on /login); the failures of the reloaded page (its
    // route preload and its render ask for the chunk again) did not
    const [first, ...after] = await errors();
    expect(first).toBe(true);
    expect(after.every((reloaded) => !reloaded)).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(loads).toBe(2);
    expect(await page.evaluate(() => performance.getEntriesByType('navigation')[0]?.toJSON().type)).toBe('reload');
  });
});
