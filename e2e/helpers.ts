import assert from 'node:assert/strict';
import type { BrowserContext, Locator, Page, Response } from 'playwright-core';

// No vitest import here: e2e/screenshot.ts uses these helpers outside the test runner.

/** Network-bound waits get a generous budget: CI runs other test projects on the same 2 cores. */
export const WAIT = 20_000;

export const DEMO = {
  password: 'Masar@2026',
  shipper: '+966500000001',
  carrier: '+966500000002',
  broker: '+966500000003',
} as const;

/** Wait until `check` passes (polling), failing with its last error after `timeout`. */
export async function eventually(check: () => Promise<unknown>, timeout = WAIT): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      await check();
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 150));
    }
  }
}

/** Persist the language the way the footer switch does (cookie `language`), before the app loads. */
export async function useLanguage(ctx: BrowserContext, url: string, lang: 'en' | 'ar') {
  await ctx.addCookies([{ name: 'language', value: lang, url }]);
}

/**
 * Wait until the app has replaced the server's prerendered HTML (the guest home, the city pages,
 * each role's load search: apps/web/src/prerender.tsx). Before that the page looks the same but
 * its buttons do nothing, and its links navigate in full; a journey that clicks must wait. The
 * sign is React's own: the first element of #root is a rendered fiber's node.
 */
export async function appTookOver(page: Page) {
  await page.waitForFunction(
    () => {
      const first = document.getElementById('root')?.firstElementChild;
      return !!first && Object.keys(first).some((k) => k.startsWith('__reactFiber$'));
    },
    undefined,
    { timeout: WAIT },
  );
}

/** `<html dir lang>` as the user's browser sees it. */
export async function htmlDir(page: Page) {
  const html = page.locator('html');
  return { dir: await html.getAttribute('dir'), lang: await html.getAttribute('lang') };
}

/** Sign in on /login with phone + password (the default tab) and wait for the type's landing page. */
export async function signIn(page: Page, base: string, phone: string, landing: string, password: string = DEMO.password) {
  await page.goto(`${base}/login`);
  await page.locator('input[type=tel]').fill(phone.replace(/^\+966/, ''));
  await page.locator('input[type=password]').fill(password);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL((u) => u.pathname === landing, { timeout: WAIT });
}

/** The listbox option of an open Mantine combobox whose label starts with `text` (hidden dropdowns excluded). */
export function option(page: Page, text: string | RegExp): Locator {
  return page.getByRole('option').filter({ hasText: text }).first();
}

/** Type into a CitySelect (GET /cities?search=) and pick the city whose name is exactly `name`. */
export async function pickCity(page: Page, input: Locator, name: string) {
  await input.click();
  await input.fill(name);
  const opt = page
    .getByRole('option')
    .filter({ has: page.getByText(name, { exact: true }) })
    .first();
  await opt.waitFor({ state: 'visible', timeout: WAIT });
  await opt.click();
  await eventually(async () => assert.equal(await input.inputValue(), name));
}

/** Open a Mantine Select and choose the option labelled `text`. */
export async function pickOption(page: Page, input: Locator, text: string | RegExp) {
  await input.click();
  const opt = option(page, text);
  await opt.waitFor({ state: 'visible', timeout: WAIT });
  await opt.click();
}

/** Arabic-Indic digits → Western: pickers write the reader's digit system (Arabic-Indic by default in Arabic). */
const western = (s: string) => s.replace(/[\u0660-\u0669]/g, (c) => String(c.charCodeAt(0) - 0x660));

/**
 * Pick a date and time in a Mantine DateTimePicker: open it, go `monthsAhead` months forward,
 * click `day`, enter the time (hours, minutes) and confirm with the dropdown's submit button.
 */
export async function pickDateTime(page: Page, trigger: Locator, monthsAhead: number, day: number, time: `${number}${number}:${number}${number}`) {
  await trigger.click();
  const dd = page.locator('[data-dates-dropdown]:visible');
  await dd.waitFor({ state: 'visible', timeout: WAIT });
  for (let i = 0; i < monthsAhead; i++) await dd.locator('button[data-direction="next"]').click();
  await dd
    .locator('table button:not([data-outside]):not([data-disabled])')
    .filter({ hasText: new RegExp(`^(${day}|${String(day).replace(/\d/g, (d) => String.fromCharCode(0x660 + Number(d)))})$`) })
    .first()
    .click();
  const [hh, mm] = time.split(':');
  await dd.getByRole('spinbutton').nth(0).fill(hh);
  await dd.getByRole('spinbutton').nth(1).fill(mm);
  // the fields are painted in the page's digit system (components/DateTimePicker.tsx: their `value`
  // reads Western, what the reader sees is the native value underneath)
  const arabic = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0x660 + Number(d)));
  await eventually(async () => {
    const { arab, painted } = await dd.getByRole('spinbutton').evaluateAll((els) => {
      const paint = (el: Element) => Reflect.get(HTMLInputElement.prototype, 'value', el);
      const digits = localStorage.getItem('digits') ?? (document.documentElement.lang.startsWith('ar') ? 'arab' : 'latn');
      return { arab: digits === 'arab', painted: els.slice(0, 2).map(paint) };
    });
    assert.deepEqual(painted, arab ? [arabic(hh), arabic(mm)] : [hh, mm]);
  });
  await dd.locator('button:not(table button):not([data-direction])').last().click();
  await dd.waitFor({ state: 'hidden', timeout: WAIT });
  const shown = new RegExp(`^${String(day).padStart(2, '0')}/\\d\\d/\\d{4} ${time}$`);
  await eventually(async () => assert.match(western((await trigger.textContent()) ?? ''), shown));
}

/** Wait for the API answer to `method path` (path under /api/v1, matched as a prefix without query). */
export function apiResponse(page: Page, method: string, path: string | RegExp): Promise<Response> {
  return page.waitForResponse(
    (r) => {
      if (r.request().method() !== method) return false;
      const p = new URL(r.url()).pathname;
      return typeof path === 'string' ? p === `/api/v1${path}` : path.test(p);
    },
    { timeout: WAIT },
  );
}

/** `data` of the `{message, data}` envelope of an API response. */
export async function dataOf<T>(r: Response): Promise<T> {
  const j = (await r.json()) as { data: T };
  return j.data;
}

/** A 1×1 PNG: the proof photo a driver "takes" in the browser journeys. */
export const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * A JSON client of the running server for set-up steps a journey does not show:
 * `call(method, path, token, body?, headers?)` → `data`, throwing with the answer on a non-2xx;
 * every call carries a fresh Idempotency-Key. `signInToken(phone)` signs in by password.
 */
export function apiClient(base: () => string) {
  async function call<T>(method: string, path: string, token: string | null, body?: unknown, extra: Record<string, string> = {}): Promise<T> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), ...extra };
    if (token) headers.authorization = `Bearer ${token}`;
    const r = await fetch(`${base()}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const j = (await r.json()) as { data: T };
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(j)}`);
    return j.data;
  }
  const signInToken = async (phone: string, password: string = DEMO.password) =>
    (await call<{ token: { accessToken: string } }>('POST', '/account/signIn', null, { phone, password })).token.accessToken;
  return { call, signInToken };
}

/** Requests a page has started and not yet finished or failed, and when that count last changed. */
const inFlight = new WeakMap<Page, { open: number; changed: number }>();

/**
 * Count `page`'s requests from now on (see settled). Call it once, before the page's first
 * navigation that `settled` should cover.
 */
export function trackRequests(page: Page) {
  if (inFlight.has(page)) return;
  const s = { open: 0, changed: Date.now() };
  inFlight.set(page, s);
  page.on('request', () => {
    s.open++;
    s.changed = Date.now();
  });
  const done = () => {
    s.open = Math.max(0, s.open - 1);
    s.changed = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
}

/**
 * Wait until `page` (tracked by trackRequests) has had no request open for `quietMs` (ms): the
 * page's data has arrived and nothing it started on arrival is still loading. Playwright's
 * `networkidle` is the same idea with a fixed 500 ms of quiet after the load event; the page sweep
 * (a11y.ts) waits this way after its own ready condition, with a shorter quiet (issue 51, CI time).
 * Throws after `timeoutMs`.
 */
export async function settled(page: Page, quietMs = 150, timeoutMs = WAIT) {
  const s = inFlight.get(page);
  if (!s) throw new Error('settled(page) needs trackRequests(page) first');
  const until = Date.now() + timeoutMs;
  while (s.open > 0 || Date.now() - s.changed < quietMs) {
    if (Date.now() > until) throw new Error(`page ${page.url()} still had ${s.open} request(s) open after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
