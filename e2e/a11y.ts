import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, ROOT, startServer, type RunningServer } from './harness';
import { digitLeaks } from './digits';
import { settled, trackRequests } from './helpers';
import { LAYOUT_ONLY, openRoleBrowsers, PICKERS, prefer, ROLES, TARGETS, type Check, type RoleBrowsers, type Target } from './pages';

/**
 * The page sweep: every page of e2e/pages.ts loaded once per language and width, and checked on
 * that one load for
 * - axe-core (issue 9), in English and Arabic, light and dark, desktop (1280 px), and in Arabic,
 *   light and dark, on the phone (390 px; axeAt, A11Y_FULL=1 for English there too):
 *   any serious or critical violation fails, so new screens stay clean. The page is checked in the
 *   light theme (every WCAG A/AA rule), then switched to dark in place (switchToDark: the path the
 *   footer's theme switch and a theme change in another tab take) and checked again with the rules
 *   that read colours (THEME_RULES). Until issue 51 (2026-12-07) every page was loaded again for
 *   the dark theme: 4 loads per page and width, now 2;
 * - one digit system (issue 23, e2e/digits.ts): in Arabic, light theme, at both widths, no Western
 *   digit outside Latin text and codes (with two open date pickers, PICKERS);
 * - no Content-Security-Policy error in the console and no badge cut short (issue 47), on every
 *   page, language and width;
 * - the phone layout (issue 9): at 390 px in light, English and Arabic, no page is wider than the
 *   screen (wide tables scroll inside their own container or become cards; LAYOUT_ONLY adds pages
 *   that only this check visits).
 * Until 2026-12-07 the digit scan and the layout check were files of their own (digits.test.ts,
 * the first test of mobile.test.ts) that loaded the same pages again: 31 and 2 × 31 page loads
 * with a server and three browser contexts of their own (issue 51, CI time).
 * Every combination runs on one signed-in browser context per role; the per-page axe counts
 * are written to e2e/artifacts/a11y-report-<width>.json for people to read.
 *
 * One test file per width (a11y-desktop.test.ts, a11y-phone.test.ts), so the two halves of the
 * sweep run side by side: as one file it was the last journey to finish, alone, for 4–5 minutes.
 * A11Y_WIDTHS=1280 (comma-separated) narrows the run when iterating locally; so does
 * A11Y_PAGES=help,contact,city (target names, comma-separated).
 *
 * Pages are checked by A11Y_LANES (default 2) tabs per role at once, so one tab's waits (network
 * idle, transitions) overlap another's checks. axe runs in the page itself ("legacy mode": the
 * default runs it again in a new blank tab to merge frame results, which doubled every check's
 * cost; the product's pages have no cross-origin frames) and is put into each frame once.
 *
 * A tab moves from page to page the way a user does, by the app's own navigation (open(): the
 * router renders the next route; the app shell, its session, its real-time socket and axe stay
 * loaded), not by loading the whole app again for every page: a full load is for a tab's first
 * page in a language and for a page visited twice in a row. A11Y_NAV=load loads every page afresh
 * (to compare, or to find a page that only passes in one of the two ways). Issue 51, CI time.
 */
const WIDTHS = (process.env.A11Y_WIDTHS ?? '1280,390').split(',').map(Number);
const ONLY = process.env.A11Y_PAGES ? new Set(process.env.A11Y_PAGES.split(',').map((s) => s.trim())) : null;
const LANGS = ['en', 'ar'] as const;
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const SERIOUS = new Set(['serious', 'critical']);
/**
 * The axe rules whose outcome a theme can change: the dark theme is the same page with other
 * colours (Mantine's CSS variables; switchToDark changes nothing else), so in dark the check runs
 * only the rules that read colours: text contrast and links told apart from their text by colour
 * alone. Every other rule (names, roles, landmarks, ARIA, focus order) reads the DOM, which the
 * light check has already covered on the same load. About a third of the sweep's axe time went
 * to re-running those (issue 51).
 */
const THEME_RULES = ['color-contrast', 'link-in-text-block'];
const LANES = Math.max(1, Number(process.env.A11Y_LANES ?? 2));
/** How a tab goes to the next page: `client` (the app's own navigation) or `load` (a full page load); see open(). */
const NAV = process.env.A11Y_NAV ?? 'client';
const PHONE_MAX = 800;
/**
 * Where axe runs: both languages on the desktop, Arabic on the phone. A page's DOM in English and
 * in Arabic differs only in its text and direction, which the desktop sweep checks in both
 * languages; what only the phone has (cards instead of tables, the bottom bar, drawers) is checked
 * in Arabic, the right-to-left one, light and dark. English at 390 px still gets the layout, badge
 * and CSP checks. A11Y_FULL=1 runs axe in every combination (issue 51: the English phone pass's
 * axe was about a quarter of the phone sweep).
 */
const axeAt = (lang: 'en' | 'ar', width: number) => process.env.A11Y_FULL === '1' || width > PHONE_MAX || lang === 'ar';
/** axe-core itself, put into each page once before the check (see check()) */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
interface Finding {
  page: string;
  lang: string;
  theme: string;
  width: number;
  /** rule id → number of offending nodes */
  rules: Record<string, number>;
  /** up to three offending nodes per rule, for the failure message */
  samples: string[];
}

/** The sweep at one viewport width (px): en and ar, light and dark. */
export function a11ySweep(width: number) {
  describe.skipIf(!hasChromium || !WIDTHS.includes(width))(`accessibility (axe-core) at ${width} px`, () => {
    let srv: RunningServer;
    let browsers: RoleBrowsers;
    const findings: Finding[] = [];

    /**
     * Milliseconds of lane time per phase of check(), summed over the sweep (written beside the
     * report as a11y-phases-<width>.json): where the sweep's time goes, for CI-time work (issue 51).
     */
    const phases: Record<string, number> = {};
    const timed = async <T>(phase: string, run: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      try {
        return await run();
      } finally {
        phases[phase] = (phases[phase] ?? 0) + performance.now() - t0;
      }
    };

    /** Content-Security-Policy violations the pages logged (issue 47: none on any page). */
    const cspErrors: string[] = [];

    beforeAll(async () => {
      srv = await startServer();
      browsers = await openRoleBrowsers(srv, LANES);
      for (const tabs of browsers.pages.values())
        for (const tab of tabs) {
          trackRequests(tab);
          tab.on('console', (msg) => {
            if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) cspErrors.push(`${tab.url()}: ${msg.text()}`);
          });
        }
    });

    afterAll(async () => {
      mkdirSync(join(ROOT, 'e2e/artifacts'), { recursive: true });
      writeFileSync(join(ROOT, `e2e/artifacts/a11y-report-${width}.json`), JSON.stringify(findings, null, 1));
      writeFileSync(
        join(ROOT, `e2e/artifacts/a11y-phases-${width}.json`),
        JSON.stringify(Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, Math.round(v)])), null, 1),
      );
      await browsers?.close();
      await srv?.stop();
    });

    /** The checks that apply to `target` at this language and width in the light theme (see the top of the file). */
    const checksOf = (target: Target, lang: 'en' | 'ar', width: number): Check[] =>
      (target.checks ?? (['axe', 'digits', 'layout'] as const)).filter((c) =>
        c === 'axe' ? axeAt(lang, width) : c === 'digits' ? lang === 'ar' : width <= PHONE_MAX,
      );

    /** axe-core on the page as it is now: its serious and critical violations as a Finding. */
    async function axe(page: Page, target: Target, lang: 'en' | 'ar', theme: 'light' | 'dark'): Promise<Finding> {
      // only the violations are read: axe then keeps no node details for the rules that passed
      // (on a long page thousands of nodes it serialised back for nothing)
      const builder = new AxeBuilder({ page, axeSource: 'void 0' }).setLegacyMode(true).options({ resultTypes: ['violations'] });
      const result = await (theme === 'light' ? builder.withTags(AXE_TAGS) : builder.withRules(THEME_RULES)).analyze();
      const bad = result.violations.filter((v) => SERIOUS.has(v.impact ?? ''));
      return {
        page: target.name,
        lang,
        theme,
        width,
        rules: Object.fromEntries(bad.map((v) => [v.id, v.nodes.length])),
        samples: bad.flatMap((v) => v.nodes.slice(0, 3).map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`)),
      };
    }

    /**
     * The dark theme on the loaded page, the way a theme change in another tab reaches it: a
     * `storage` event for the key `theme`, which Mantine's colour-scheme manager (Providers.tsx)
     * applies live (React state, the `data-mantine-color-scheme` attribute, the CSS variables),
     * as the footer's switch does. The manager then stores the scheme; this page's write of `theme`
     * is dropped so that the other tab of this role (same origin, same storage) does not switch
     * mid-check on the real storage event that write would send it. The role browsers ask for
     * reduced motion (pages.ts), so no colour transition runs: the dark colours are final as soon as
     * the attribute is set (until 2026-12-07 a style tag turned transitions off here and the check
     * waited 400 ms, once per page and width: a tab that is not in front runs no transition frames,
     * so a colour transition had kept the light colours there).
     */
    async function switchToDark(page: Page) {
      await page.evaluate(() => {
        const store = Storage.prototype;
        const setItem = Object.getOwnPropertyDescriptor(store, 'setItem')!.value as (this: Storage, k: string, v: string) => void;
        store.setItem = function (this: Storage, k: string, v: string) {
          if (k !== 'theme') setItem.call(this, k, v);
        };
        window.dispatchEvent(new StorageEvent('storage', { key: 'theme', newValue: 'dark', storageArea: localStorage }));
      });
      await page.locator('html[data-mantine-color-scheme=dark]').waitFor({ state: 'attached', timeout: 5_000 });
    }

    /** The language each tab's app was last loaded in (a full page load), for open(). */
    const loadedIn = new WeakMap<Page, string>();
    /**
     * Open `path` in the tab. With A11Y_NAV=client (the default) a tab whose app is already
     * loaded in this language goes there the way the app's own links do (history.pushState and a
     * popstate event: React Router renders the route, the app shell, its session and socket stay),
     * and is put back in the light theme if the last check left it dark; a first visit, a new
     * language or the same path again is a full load. A11Y_NAV=load loads every page afresh.
     */
    async function open(page: Page, path: string, lang: 'en' | 'ar') {
      const here = page.url().startsWith(srv.url) ? page.url().slice(srv.url.length) : null;
      if (NAV !== 'client' || loadedIn.get(page) !== lang || here === path) {
        await page.goto(`${srv.url}${path}`, { waitUntil: 'load' });
        loadedIn.set(page, lang);
        return;
      }
      await page.evaluate(
        ([to, dark]) => {
          if (dark) window.dispatchEvent(new StorageEvent('storage', { key: 'theme', newValue: 'light', storageArea: localStorage }));
          history.pushState(null, '', to);
          window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
        },
        [path, (await page.locator('html').getAttribute('data-mantine-color-scheme')) === 'dark'] as const,
      );
      // the route's code and data: requested as it renders, so quiet means the new page is there
      await settled(page);
    }

    /** Load one page in a tab (light theme), wait for its data and settled colours, run its checks, then the dark theme's axe on the same page. */
    async function check(page: Page, target: Target, lang: 'en' | 'ar', checks: Check[]) {
      const path = browsers.pathOf(target);
      // the load event, the page's own ready condition, then 150 ms without a request open: the
      // data behind what axe reads has arrived (Playwright's networkidle waited 500 ms of quiet on
      // every page, 47 s of each width's sweep; issue 51)
      await timed('load', () => open(page, path, lang));
      await timed('ready', () => target.ready(page));
      await timed('settled', () => settled(page));
      expect(await page.locator('html').getAttribute('lang')).toBe(lang);
      expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('light');
      // no transition to wait for: the role browsers ask for reduced motion (pages.ts), so colours
      // are final once the page is ready (a fixed 400 ms wait until 2026-12-07)
      const digits = checks.includes('digits') ? await timed('digits', () => digitLeaks(page, target.name)) : [];
      // issue 47: a status badge is read whole, never cut to its first letter by a narrow column
      const clipped = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.mantine-Badge-label')]
          .filter((b) => b.offsetParent && b.scrollWidth > b.clientWidth + 1)
          .map((b) => b.textContent ?? ''),
      );
      let wide: string | null = null;
      if (checks.includes('layout')) {
        const { scroll, client } = await page.evaluate(() => ({
          scroll: document.scrollingElement!.scrollWidth,
          client: document.scrollingElement!.clientWidth,
        }));
        if (scroll > client) wide = `${target.name} (${path}, ${lang}): ${scroll} > ${client}`;
      }
      if (!checks.includes('axe')) return { findings: [], digits, wide, clipped };
      // once per document: after the app's own navigation the page still has it
      await timed('axe inject', async () => {
        for (const frame of page.frames()) if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(AXE_SOURCE);
      });
      const light = await timed('axe light', () => axe(page, target, lang, 'light'));
      await timed('dark switch', () => switchToDark(page));
      const dark = await timed('axe dark', () => axe(page, target, lang, 'dark'));
      return { findings: [light, dark], digits, wide, clipped };
    }

    /**
     * One language's sweep of every page, light and dark: a time limit, never an assertion on
     * speed. Each theme's pass took about 90 s with Debian's Chromium 156.0.8078.73 and 160-200 s
     * with 156.0.8078.114 when every page was loaded once per theme (2026-12-02). A sweep cut off
     * mid-way leaves its tabs navigating into the next one, which then fails for that reason.
     * The Arabic sweep also runs the digit scan (and, at 390 px, the layout check on 12 more pages).
     */
    const SWEEP_TIMEOUT_MS = 900_000;
    for (const lang of LANGS) {
      it(
        `page sweep at ${width} px, ${lang}${axeAt(lang, width) ? ', light and dark: no serious or critical axe violation' : ''}${lang === 'ar' ? ', one digit system' : ''}${width <= PHONE_MAX ? ', nothing wider than the screen' : ''}`,
        async () => {
          for (const role of ROLES) await prefer(browsers, srv.url, role, lang, 'light', width);
          const queue = [...TARGETS, ...PICKERS, ...LAYOUT_ONLY]
            .filter((x) => !ONLY || ONLY.has(x.name))
            .map((target) => ({ target, checks: checksOf(target, lang, width) }))
            .filter((x) => x.checks.length);
          const failures: Finding[] = [];
          const leaks: string[] = [];
          const wide: string[] = [];
          const badges: string[] = [];
          // each lane takes the next page and checks it in its own tab of that page's role
          const lane = async (n: number) => {
            for (let next = queue.shift(); next; next = queue.shift()) {
              const seen = await check(browsers.pages.get(next.target.role)![n], next.target, lang, next.checks);
              leaks.push(...seen.digits);
              if (seen.wide) wide.push(seen.wide);
              badges.push(...seen.clipped.map((b) => `${next.target.name}: «${b}»`));
              findings.push(...seen.findings);
              failures.push(...seen.findings.filter((f) => Object.keys(f.rules).length));
            }
          };
          await Promise.all(Array.from({ length: LANES }, (_, n) => lane(n)));
          const summary = failures.map((f) => `${f.page} (${f.theme}): ${JSON.stringify(f.rules)}\n    ${f.samples.join('\n    ')}`).join('\n');
          expect.soft(failures.length, `serious/critical axe violations:\n${summary}`).toBe(0);
          expect.soft(leaks, `Western digits on Arabic pages:\n${leaks.join('\n')}`).toEqual([]);
          expect.soft(cspErrors.splice(0), 'Content-Security-Policy errors in the console').toEqual([]);
          expect.soft(badges, 'badges cut short by their column').toEqual([]);
          expect(wide, 'pages wider than the phone').toEqual([]);
          // both themes were checked on every axe page
          if (axeAt(lang, width)) expect(new Set(findings.filter((f) => f.lang === lang).map((f) => f.theme))).toEqual(new Set(['light', 'dark']));
        },
        SWEEP_TIMEOUT_MS,
      );
    }
  });
}
