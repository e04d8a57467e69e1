import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { hasChromium, openBrowser, startServer, type RunningServer } from './harness';
import { DEMO, signIn, WAIT } from './helpers';

/**
 * Web push in Chromium (issue 21; docs/notifications.md "Web push"): the app is installable (a
 * valid manifest in each language, its icons served as PNG), the service worker registers and
 * takes control, and the settings page offers the push switch without asking permission on load.
 * (The push itself needs a real push service; the server test decrypts pushes from a local one.)
 */
describe.skipIf(!hasChromium)('web push', () => {
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

  it('links a valid manifest (en, ar) with installable icons', async () => {
    const page = await ctx.newPage();
    await page.goto(`${srv.url}/`);
    const href = await page.locator('link[rel=manifest]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    for (const [path, lang, short] of [
      ['/manifest.webmanifest', 'en', 'Masar'],
      ['/manifest.ar.webmanifest', 'ar', 'مسار'],
    ] as const) {
      const r = await page.request.get(`${srv.url}${path}`);
      expect(r.status()).toBe(200);
      const m = (await r.json()) as {
        lang: string;
        short_name: string;
        name: string;
        display: string;
        start_url: string;
        theme_color: string;
        icons: { src: string; sizes: string; type: string; purpose?: string }[];
      };
      expect(m).toMatchObject({ lang, short_name: short, display: 'standalone', start_url: '/?source=pwa', theme_color: '#0FC474' });
      expect(m.name.length).toBeGreaterThan(3);
      const sizes = m.icons.filter((i) => i.type === 'image/png').map((i) => i.sizes);
      expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
      expect(m.icons.some((i) => i.purpose === 'maskable')).toBe(true);
      for (const i of m.icons) {
        const icon = await page.request.get(`${srv.url}${i.src}`);
        expect(icon.status()).toBe(200);
        expect(icon.headers()['content-type']).toContain(i.type);
      }
    }
  });

  it('registers the service worker, and the settings page offers the push switch without asking on load', async () => {
    const page = await ctx.newPage();
    const asked: string[] = [];
    await page.exposeFunction('__asked', (what: string) => void asked.push(what));
    await page.addInitScript(() => {
      const original = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = (...args: Parameters<typeof Notification.requestPermission>) => {
        (window as unknown as { __asked(w: string): void }).__asked('permission');
        return original(...args);
      };
    });
    await signIn(page, srv.url, DEMO.carrier, '/carriers/load-search');
    await page.goto(`${srv.url}/carriers/setting`);
    await page.locator('[data-testid=push-switch]').waitFor({ timeout: WAIT });
    expect(asked).toEqual([]);
    const state = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
      return { scope: reg.scope, active: reg.active?.state ?? null, script: reg.active?.scriptURL ?? null };
    });
    expect(state.scope).toBe(`${srv.url}/`);
    expect(state.script).toBe(`${srv.url}/sw.js`);
    expect(['activating', 'activated']).toContain(state.active);
  });
});
