import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, startServer, type RunningServer } from './harness';
import { openRoleBrowsers, prefer, ROLES, TARGETS, visible, type RoleBrowsers, type Target } from './pages';

/**
 * Issue 23, "one digit system everywhere on a page": every page the accessibility check visits
 * (e2e/pages.ts), public and signed in as each role, in Arabic with the Arabic-Indic digit setting,
 * at desktop and phone width. The text a reader sees — text nodes (SVG chart ticks and map cluster
 * counts included, and the charts' tables for assistive technology), input values and placeholders
 * (pickers, hints) — must hold no Western digit 0-9, except in the few things below that are
 * written in Latin by design. A leak fails with the page, the element and the text.
 *
 * ALLOWED (explicit and small; each pattern is cut out of the text before the check):
 * - codes: load, shipment, tender and invoice references, upper-case Latin letters, a hyphen and
 *   digits ("LD-001305", "INV-2026-000012");
 * - e-mail addresses and URLs;
 * - words of Latin text that carry digits ("20ft", "ISO9001", "V2"): a token with a Latin letter in it;
 * - phone numbers in international form ("+966 55 123 0001", the "+966" before a phone field):
 *   shown LTR in Western digits, as dialled (issue 23: phones isolated LTR everywhere);
 * - a payment card's last four ("•••• 1111"), as printed on the card;
 * - elements marked `data-latin-digits` in the product, each with a comment saying why: the
 *   digit-system switch and its hint ("012" names the Western system), the Latin row of a plate,
 *   the card's last four, the sandbox test card numbers, a trailer's registration number and the
 *   typed parts of a saved address (shown as typed).
 * Invisible formatting characters (bidi isolates, word joiners) are dropped first, and radio and
 * checkbox inputs are skipped (their value is never shown).
 *
 * DIGITS_WIDTHS=1280 and DIGITS_PAGES=home,login (target names) narrow the run, like the a11y knobs;
 * DIGITS_LANES (default 3) tabs per role scan at once.
 */
const WIDTHS = (process.env.DIGITS_WIDTHS ?? '1280,390').split(',').map(Number);
const ONLY = process.env.DIGITS_PAGES ? new Set(process.env.DIGITS_PAGES.split(',').map((s) => s.trim())) : null;
const LANES = Math.max(1, Number(process.env.DIGITS_LANES ?? 3));

/** An open picker's calendar (Mantine's popover dropdown) after a click on the field `field`. */
const openPicker = async (page: Page, ready: string, field: string) => {
  await visible(page, ready);
  await page.locator(field).first().click();
  await visible(page, '.mantine-Popover-dropdown:visible');
};
/** Pickers open: what a page shows only after a click (issue 23: "the birth-date picker"). */
const PICKERS: Target[] = [
  {
    name: 'post load (pickup date picker)',
    role: 'shipper',
    path: '/shippers/post-load',
    ready: (p) => openPicker(p, '[data-testid=post-load-submit]', '[data-testid=stop-0-date]'),
  },
  {
    name: 'new driver (birth date picker)',
    role: 'shipper',
    path: '/shippers/fleet-management?open=driver:new&mode=edit',
    ready: (p) => openPicker(p, '[data-testid=driver-dob]', '[data-testid=driver-dob]'),
  },
];

export const ALLOWED: [string, RegExp][] = [
  ['code', /\b[A-Z]{2,5}(?:-\d+)+\b/g],
  ['e-mail', /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g],
  ['url', /\b(?:https?:\/\/|www\.)\S+/g],
  ['phone', /\+\d[\d\s-]*\d/g],
  ['card', /•+\s*\d{4}\b/g],
  ['latin word', /[A-Za-z0-9_.-]*[A-Za-z][A-Za-z0-9_.-]*/g],
];

/** What is left of `text` once the allowed Latin pieces are cut out: any Western digit in it is a leak. */
export const leakIn = (text: string) => {
  let rest = text.replace(/[\u200b-\u200f\u2060-\u206f\ufeff]/g, '');
  for (const [, re] of ALLOWED) rest = rest.replace(re, ' ');
  return /[0-9]/.test(rest);
};

interface Seen {
  text: string;
  where: string;
}

/** Every visible text with a Western digit on the page: text nodes, input values and placeholders. */
async function westernDigitTexts(page: Page): Promise<Seen[]> {
  return page.evaluate(() => {
    const out: { text: string; where: string }[] = [];
    const where = (el: Element) => {
      const parts: string[] = [];
      for (let e: Element | null = el; e && parts.length < 4; e = e.parentElement) {
        const id = e.getAttribute('data-testid');
        parts.unshift(
          `${e.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ''}${typeof e.className === 'string' && e.className ? `.${e.className.split(' ')[0]}` : ''}`,
        );
        if (id) break;
      }
      return parts.join(' > ');
    };
    const shown = (el: Element) => !el.closest('script, style, noscript, template, [data-latin-digits]') && el.checkVisibility({ visibilityProperty: true });
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = n.nodeValue ?? '';
      if (el && /[0-9]/.test(text) && shown(el)) out.push({ text: text.trim(), where: where(el) });
    }
    for (const el of document.querySelectorAll('input, textarea')) {
      const input = el as HTMLInputElement;
      if (['hidden', 'password', 'file', 'radio', 'checkbox'].includes(input.type) || !shown(input)) continue;
      for (const text of [input.value, input.placeholder])
        if (/[0-9]/.test(text)) out.push({ text, where: `${where(input)} (${text === input.value ? 'value' : 'placeholder'})` });
    }
    return out;
  });
}

describe.skipIf(!hasChromium)('one digit system per page (Arabic, Arabic-Indic digits)', () => {
  let srv: RunningServer;
  let browsers: RoleBrowsers;

  beforeAll(async () => {
    srv = await startServer();
    browsers = await openRoleBrowsers(srv, LANES);
  });

  afterAll(async () => {
    await browsers?.close();
    await srv?.stop();
  });

  async function scan(page: Page, target: Target): Promise<string[]> {
    await page.goto(`${srv.url}${browsers.pathOf(target)}`, { waitUntil: 'networkidle' });
    await target.ready(page);
    expect(await page.locator('html').getAttribute('lang')).toBe('ar');
    await page.waitForTimeout(300);
    const leaks = (await westernDigitTexts(page)).filter((s) => leakIn(s.text));
    return [...new Map(leaks.map((l) => [`${l.where}|${l.text}`, `${target.name}: ${l.where}: "${l.text}"`])).values()];
  }

  for (const width of WIDTHS) {
    it(`shows no Western digit outside Latin text and codes at ${width} px`, async () => {
      for (const role of ROLES) {
        await prefer(browsers, srv.url, role, 'ar', 'light', width);
        await browsers.pages.get(role)![0].evaluate(() => localStorage.setItem('digits', 'arab'));
      }
      const queue = [...TARGETS, ...PICKERS].filter((x) => !ONLY || ONLY.has(x.name));
      const leaks: string[] = [];
      const lane = async (n: number) => {
        for (let target = queue.shift(); target; target = queue.shift()) leaks.push(...(await scan(browsers.pages.get(target.role)![n], target)));
      };
      await Promise.all(Array.from({ length: LANES }, (_, n) => lane(n)));
      expect(leaks, `Western digits on Arabic pages:\n${leaks.join('\n')}`).toEqual([]);
    });
  }
});
