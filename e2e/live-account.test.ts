import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium, openBrowser, snap, startServer, type RunningServer } from './harness';
import { DEMO, signIn, useLanguage, WAIT } from './helpers';

/**
 * Issue 21 "Live account updates" (spec §4 server-pushed profile updates): the operator runs
 * `npm run admin -- suspend` while the carrier's tab is open, and the tab shows the
 * non-dismissable "account suspended" dialog at once — no reload, no navigation — then signs out
 * on OK. The server runs on PostgreSQL so that the CLI runs beside it (a second process; its
 * commit wakes the server's outbox drain by NOTIFY, and the real-time channel carries the event).
 * In Arabic. Needs TEST_DATABASE_URL (CI sets it).
 */
const PG_URL = process.env.TEST_DATABASE_URL;
const DB_NAME = `masar_e2e_live_${process.pid}`;
const withDb = (name: string) => {
  const u = new URL(PG_URL!);
  u.pathname = `/${name}`;
  return u.toString();
};
async function admin(sqlText: string) {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(sqlText);
  } finally {
    await c.end();
  }
}

describe.skipIf(!hasChromium || !PG_URL)('live account updates (Arabic, server on PostgreSQL)', () => {
  let srv: RunningServer;
  let ctx: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    await admin(`drop database if exists ${DB_NAME} with (force)`);
    await admin(`create database ${DB_NAME}`);
    // earthdistance needs a superuser (STACK.md gotcha 5); the server's role here is one anyway
    const su = new pg.Client({ connectionString: withDb(DB_NAME) });
    await su.connect();
    await su.query('create extension if not exists cube; create extension if not exists earthdistance;');
    await su.end();
    // no periodic sweep within the test: the dialog can only come from the published event
    srv = await startServer({ DATABASE_URL: withDb(DB_NAME), REALTIME_SWEEP_SECONDS: '3600' });
    ctx = await openBrowser({ locale: 'ar-SA' });
    await useLanguage(ctx, srv.url, 'ar');
    page = ctx.pages()[0] ?? (await ctx.newPage());
  });

  afterEach(async (c) => {
    if (c.task.result?.state === 'fail') await snap(page, 'FAILED-live-account').catch(() => undefined);
  });

  afterAll(async () => {
    await ctx?.close();
    await srv?.stop();
    await admin(`drop database if exists ${DB_NAME} with (force)`).catch(() => undefined);
  });

  it('the operator suspends the carrier: the open tab shows the blocked dialog without a reload, and OK signs out', async () => {
    const socket = page.waitForEvent('websocket', { predicate: (ws) => ws.url().endsWith('/mqtt'), timeout: WAIT });
    await signIn(page, srv.url, DEMO.carrier, '/carriers/load-search');
    // the real-time connection is open before the operator acts
    await socket;
    // a marker that a reload or a navigation would wipe
    await page.evaluate(() => ((window as unknown as { __live: number }).__live = 21));
    const url = page.url();

    const out = await srv.adminLive('suspend', '--phone', DEMO.carrier);
    expect(out).toMatch(/suspended/i);

    const dialog = page.getByRole('dialog', { name: 'تم إيقاف الحساب' });
    await dialog.waitFor({ timeout: WAIT });
    expect(await page.evaluate(() => (window as unknown as { __live?: number }).__live)).toBe(21);
    expect(page.url()).toBe(url);
    await snap(page, 'live-account-suspended-ar');
    // non-dismissable: Escape leaves it open
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'حسناً' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/carriers'), { timeout: WAIT });
  });
});
