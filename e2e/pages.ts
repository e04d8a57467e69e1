import type { BrowserContext, Page } from 'playwright-core';
import { openBrowser, type RunningServer } from './harness';
import { seedAccountArea } from './account-data';
import { apiClient, DEMO, signIn, WAIT } from './helpers';

/**
 * Every page variant the page sweep visits (e2e/a11y.ts: issue 9 axe, the issue 23 digit scan and
 * the issue 9 phone layout check, one page load for all three): the path, the role that opens it
 * and what shows when it has its data. A page added to TARGETS is checked by all three.
 */
export const ROLES = ['guest', 'shipper', 'carrier'] as const;

export type Role = 'guest' | 'shipper' | 'carrier';
export interface Target {
  name: string;
  role: Role;
  path: string | ((s: { loadPath: string; bookedPath: string }) => string);
  /** What shows when the page has its data (waited for before axe runs). */
  ready: (page: Page) => Promise<unknown>;
  /**
   * The checks this page is visited for; all three when absent. `axe`: every language, theme and
   * width; `digits`: Arabic, light, both widths; `layout` (nothing wider than the phone): 390 px, light,
   * English and Arabic.
   */
  checks?: readonly Check[];
}
export type Check = 'axe' | 'digits' | 'layout';

export const visible = (page: Page, selector: string) => page.locator(selector).first().waitFor({ state: 'visible', timeout: WAIT });
/**
 * A map is ready when its markers have stopped moving: the cluster layer adds markers in chunks and
 * animates clusters into place, and axe run mid-animation saw two clusters overlap for a moment
 * (target-size, once in CI at 390 px). Two samples of every marker's position 400 ms apart must agree.
 */
const mapSettled = async (page: Page) => {
  await visible(page, '.leaflet-container');
  const positions = () => page.evaluate(() => [...document.querySelectorAll('.leaflet-marker-icon')].map((e) => (e as HTMLElement).style.transform).join('|'));
  let before = await positions();
  for (let i = 0; i < 25; i++) {
    await page.waitForTimeout(400);
    const now = await positions();
    if (now === before && now !== '') return;
    before = now;
  }
};
const accountReady = async (page: Page) => {
  for (const s of ['[data-testid=team-invitation]', '[data-testid=business-profile]', '[data-testid=contact-info]', 'input[type=password]'])
    await visible(page, s);
};
export const TARGETS: Target[] = [
  { name: 'home', role: 'guest', path: '/', ready: (p) => visible(p, 'footer') },
  { name: 'login', role: 'guest', path: '/login', ready: (p) => visible(p, 'input[type=password]') },
  { name: 'signup', role: 'guest', path: '/signup', ready: (p) => visible(p, 'form') },
  { name: 'post load', role: 'shipper', path: '/shippers/post-load', ready: (p) => visible(p, '[data-testid=post-load-submit]') },
  { name: 'my loads', role: 'shipper', path: '/shippers/my-loads', ready: (p) => visible(p, '[data-testid^=load-row-]') },
  { name: 'load details', role: 'shipper', path: (s) => s.loadPath, ready: (p) => visible(p, 'h4') },
  { name: 'offers', role: 'shipper', path: '/shippers/offers', ready: (p) => visible(p, 'h2') },
  { name: 'fleet', role: 'shipper', path: '/shippers/fleet-management', ready: (p) => visible(p, 'h2') },
  { name: 'vendors', role: 'shipper', path: '/shippers/contact', ready: (p) => visible(p, 'h2') },
  { name: 'csv logs', role: 'shipper', path: '/shippers/csv-logs', ready: (p) => visible(p, 'h2') },
  // the account page with its issue 8 sections: a team invitation, business profile, contact info, the links
  { name: 'account', role: 'shipper', path: '/shippers/account', ready: (p) => accountReady(p) },
  { name: 'pricing', role: 'guest', path: '/pricing', ready: (p) => visible(p, '[data-testid=plan-shipper-monthly]') },
  { name: 'faq', role: 'guest', path: '/faq', ready: (p) => visible(p, '[data-testid=faq]') },
  { name: 'help', role: 'guest', path: '/help', ready: (p) => visible(p, '[data-testid=help-bayan-wasl]') },
  { name: 'contact', role: 'guest', path: '/contact', ready: (p) => visible(p, '[data-testid=contact-form]') },
  { name: 'city', role: 'guest', path: '/city/riyadh', ready: (p) => visible(p, '[data-testid=city-sign-in], [data-testid=city-no-loads]') },
  { name: 'lane', role: 'guest', path: '/city/riyadh-to-jeddah', ready: (p) => visible(p, '[data-testid=lane-loads] a, [data-testid=lane-no-loads]') },
  { name: 'billing', role: 'shipper', path: '/shippers/billing-and-invoice', ready: (p) => visible(p, '[data-testid=plan-card]') },
  { name: 'checkout', role: 'shipper', path: '/shippers/checkout?plan=shipper-monthly', ready: (p) => visible(p, '[data-testid=pay]') },
  { name: 'profile approval', role: 'shipper', path: '/shippers/profile-approval', ready: (p) => visible(p, '[data-testid=doc-letterhead]') },
  { name: 'load search (list)', role: 'carrier', path: '/carriers/load-search', ready: (p) => visible(p, '[data-testid^=load-row-]') },
  { name: 'load search (map)', role: 'carrier', path: '/carriers/load-search?view=map', ready: (p) => mapSettled(p) },
  // issue 7: a booked shipment's truck and driver panel, the Bayan trips, the map of my fleet, the driver's job link
  { name: 'booked load', role: 'carrier', path: (s) => s.bookedPath, ready: (p) => visible(p, '[data-testid=assignment-panel]') },
  { name: 'bayan', role: 'carrier', path: '/carriers/bayan', ready: (p) => visible(p, 'h1, h2') },
  { name: 'godsview', role: 'carrier', path: '/carriers/godsview', ready: (p) => visible(p, '.leaflet-container') },
  { name: 'driver', role: 'guest', path: '/driver?token=invalid', ready: (p) => visible(p, '[data-testid=driver-trip-page]') },
  // issue 8: favourites, blocked users, settings (contact, display), team members, saved cards, the address book (seeded in beforeAll)
  { name: 'favourites', role: 'shipper', path: '/shippers/favourites', ready: (p) => visible(p, '[data-testid=relation-item]') },
  { name: 'blocked', role: 'carrier', path: '/carriers/blocked', ready: (p) => visible(p, '[data-testid=relation-item]') },
  { name: 'settings', role: 'carrier', path: '/carriers/setting', ready: (p) => visible(p, '[data-testid=contact-settings] input') },
  { name: 'team', role: 'shipper', path: '/shippers/account/team', ready: (p) => visible(p, '[data-testid=team-member]') },
  { name: 'saved cards', role: 'carrier', path: '/carriers/saved-cards', ready: (p) => visible(p, '[data-testid=saved-cards]') },
  { name: 'address book', role: 'shipper', path: '/shippers/account/addresses', ready: (p) => visible(p, '[data-testid=address-item]') },
  { name: 'account (carrier)', role: 'carrier', path: '/carriers/account', ready: (p) => accountReady(p) },
  // issue 19: the capacity side — a carrier's posted trucks, a shipper's truck search
  { name: 'post trucks', role: 'carrier', path: '/carriers/post-trucks', ready: (p) => visible(p, '[data-testid=truck-new]') },
  { name: 'search trucks', role: 'shipper', path: '/shippers/search-trucks', ready: (p) => visible(p, '[data-testid=truck-search-form]') },
  // tendering, in/out logs (issue 19)
  { name: 'tendering (shipper)', role: 'shipper', path: '/shippers/tendering-shipment', ready: (p) => visible(p, '[data-testid=tender-new]') },
  {
    name: 'tendering (carrier)',
    role: 'carrier',
    path: '/carriers/tendering-shipment',
    ready: (p) => visible(p, '[data-testid=tenders-empty], [data-testid^=tender-LD]'),
  },
  { name: 'truck in/out', role: 'shipper', path: '/shippers/truck-in-truck-out', ready: (p) => visible(p, 'h1, h2') },
  { name: 'shipment in/out', role: 'carrier', path: '/carriers/shipment-in-shipment-out', ready: (p) => visible(p, 'h1, h2') },
  // notifications (issue 21): the page (demo history gives it entries) and the preferences on the settings page
  { name: 'notifications', role: 'shipper', path: '/shippers/notifications', ready: (p) => visible(p, '[data-testid=notification-entry]') },
  {
    name: 'notification preferences',
    role: 'carrier',
    path: '/carriers/setting',
    // with the web push switch (issue 21), which appears once the browser's push state is read
    ready: async (p) => {
      await visible(p, '[data-testid=notification-preferences] [data-testid=save-notification-preferences]');
      await visible(p, '[data-testid=push-switch]');
    },
  },
  // the dashboards (issue 20)
  { name: 'dashboard (shipper)', role: 'shipper', path: '/shippers/dashboard', ready: (p) => visible(p, '[data-testid=stat-loads_posted]') },
  { name: 'dashboard (carrier)', role: 'carrier', path: '/carriers/dashboard', ready: (p) => visible(p, '[data-testid=stat-won]') },
  // market rates, the rate forecast and rate-change alerts (issue 20): Riyadh (3) → Jeddah (18), the demo history's busiest lane
  { name: 'market rates', role: 'shipper', path: '/shippers/market-rates?origin=3&destination=18', ready: (p) => visible(p, '[data-testid=rates-figure]') },
  {
    name: 'rate forecast',
    role: 'guest',
    path: '/rate-forecast?origin=3&destination=18',
    ready: (p) => visible(p, '[data-testid=forecast-result] svg.recharts-surface'),
  },
  { name: 'rate alerts', role: 'carrier', path: '/carriers/rate-change-alerts', ready: (p) => visible(p, '[data-testid=alert-submit]') },
  // the chat drawer on a thread (issue 21): the carrier's conversation about its booked shipment
  // (seeded by openRoleBrowsers: a message and a PDF attachment), opened from the header
  {
    name: 'chat thread',
    role: 'carrier',
    path: '/carriers/blocked',
    ready: async (p) => {
      await visible(p, '[data-testid=relation-item]');
      await p.getByTestId('chat-button').click();
      await p.getByTestId('chat-conversation').first().click();
      await visible(p, '[data-testid=chat-message]');
      await visible(p, '[data-testid=chat-input]');
    },
  },
];

/** An open picker's calendar (Mantine's popover dropdown) after a click on the field `field`. */
const openPicker = async (page: Page, ready: string, field: string) => {
  await visible(page, ready);
  await page.locator(field).first().click();
  await visible(page, '.mantine-Popover-dropdown:visible');
};
/** Pickers open: what a page shows only after a click (issue 23: "the birth-date picker"). */
export const PICKERS: Target[] = [
  {
    name: 'post load (pickup date picker)',
    role: 'shipper',
    path: '/shippers/post-load',
    ready: (p) => openPicker(p, '[data-testid=post-load-submit]', '[data-testid=stop-0-date]'),
    checks: ['digits'],
  },
  {
    name: 'new driver (birth date picker)',
    role: 'shipper',
    path: '/shippers/fleet-management?open=driver:new&mode=edit',
    ready: (p) => openPicker(p, '[data-testid=driver-dob]', '[data-testid=driver-dob]'),
    checks: ['digits'],
  },
];

const heading = (p: Page) => visible(p, 'main h1, main h2');
/**
 * Pages checked only for the phone layout (issue 9: no page scrolls sideways at 390 px), beside
 * TARGETS: the other role's side of a screen, and screens the axe sweep does not load.
 */
export const LAYOUT_ONLY: Target[] = (
  [
    ['shipper', '/shippers/fleet-management?tab=1'],
    ['shipper', '/shippers/bayan'],
    ['shipper', '/shippers/account/integrations'],
    ['shipper', '/shippers/godsview'],
    ['shipper', '/shippers/blocked'],
    ['shipper', '/shippers/setting'],
    ['shipper', '/shippers/saved-cards'],
    ['carrier', '/carriers/my-shipments'],
    ['carrier', '/carriers/offers'],
    ['carrier', '/carriers/fleet-management'],
    ['carrier', '/carriers/favourites'],
    ['carrier', '/carriers/account/team'],
  ] as const
).map(([role, path]) => ({ name: `${path} (layout)`, role, path, ready: heading, checks: ['layout'] as const }));

/** One signed-in browser context per role with `lanes` tabs each, and the paths that need the demo data (a load, a booked shipment). */
export interface RoleBrowsers {
  contexts: Map<Role, BrowserContext>;
  pages: Map<Role, Page[]>;
  state: { loadPath: string; bookedPath: string };
  pathOf(target: Target): string;
  close(): Promise<void>;
}

/** Seed the account area, open and sign in one context per role, and find the demo load and booked shipment. */
export async function openRoleBrowsers(srv: RunningServer, lanes: number): Promise<RoleBrowsers> {
  await seedAccountArea(srv.url);
  const contexts = new Map<Role, BrowserContext>();
  const pages = new Map<Role, Page[]>();
  const state = { loadPath: '', bookedPath: '' };
  for (const role of ROLES) {
    // reduced motion: no transition to wait for before a check reads colours (a11y.ts)
    const ctx = await openBrowser({ reducedMotion: 'reduce' });
    contexts.set(role, ctx);
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    const tabs = [page];
    while (tabs.length < lanes) tabs.push(await ctx.newPage());
    pages.set(role, tabs);
    if (role === 'shipper') await signIn(page, srv.url, DEMO.shipper, '/shippers/my-loads');
    if (role === 'carrier') await signIn(page, srv.url, DEMO.carrier, '/carriers/load-search');
  }
  const shipper = pages.get('shipper')![0];
  const first = shipper.locator('a[href*="/shippers/loads/"]').first();
  await first.waitFor({ timeout: WAIT });
  state.loadPath = (await first.getAttribute('href'))!;
  // a shipment the demo carrier booked and has not assigned a truck to yet
  const carrier = pages.get('carrier')![0];
  await carrier.goto(`${srv.url}/carriers/my-shipments?tab=unassigned`);
  const booked = carrier.locator('a[href*="/carriers/loads/"]').first();
  await booked.waitFor({ timeout: WAIT });
  state.bookedPath = (await booked.getAttribute('href'))!;
  await seedChat(srv.url);
  return {
    contexts,
    pages,
    state,
    pathOf: (target) => (typeof target.path === 'string' ? target.path : target.path(state)),
    async close() {
      for (const c of contexts.values()) await c.close();
    },
  };
}

/** Language and theme as the footer switches store them (cookie + local storage), and the viewport, for every tab of a role; the next load uses them. */
export async function prefer(b: RoleBrowsers, base: string, role: Role, lang: 'en' | 'ar', theme: 'light' | 'dark', width: number) {
  const ctx = b.contexts.get(role)!;
  const [page, ...others] = b.pages.get(role)!;
  await ctx.addCookies([{ name: 'language', value: lang, url: base }]);
  if (!page.url().startsWith(base)) await page.goto(`${base}/`);
  await page.evaluate(
    ([l, th]) => {
      localStorage.setItem('language', l);
      localStorage.setItem('theme', th);
    },
    [lang, theme],
  );
  for (const tab of [page, ...others]) await tab.setViewportSize({ width, height: width > 800 ? 900 : 844 });
}

/**
 * The "chat thread" target's conversation: the demo carrier bids on a posted load of the demo
 * shipper (one without offers, not book-now) and writes a message and a PDF attachment.
 */
async function seedChat(base: string) {
  const { call, signInToken } = apiClient(() => base);
  const [shipper, token] = await Promise.all([signInToken(DEMO.shipper), signInToken(DEMO.carrier)]);
  const posted = await call<{ items: { id: string; status: string; offersCount: number; bookNow?: boolean }[] }>(
    'GET',
    '/my-loads?tab=posted&limit=50',
    shipper,
  );
  const load = posted.items.find((l) => l.status === 'posted' && l.offersCount === 0 && !l.bookNow);
  if (!load) throw new Error('no posted demo load without offers for the chat thread');
  await call('POST', '/offers', token, { loadId: load.id, priceSar: '3500' });
  const conv = await call<{ id: string }>('POST', '/chat/conversations', token, { loadId: load.id });
  await call('POST', `/chat/conversations/${conv.id}/messages`, token, { body: 'The truck is at the gate; loading starts at 8.' });
  const form = new FormData();
  form.append('purpose', 'chat-attachment');
  form.append('file', new Blob([Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')], { type: 'application/pdf' }), 'rate-sheet.pdf');
  const up = await fetch(`${base}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
    body: form,
  });
  if (!up.ok) throw new Error(`POST /files: ${up.status} ${await up.text()}`);
  const file = ((await up.json()) as { data: { id: string } }).data;
  await call('POST', `/chat/conversations/${conv.id}/messages`, token, { attachmentId: file.id });
}
