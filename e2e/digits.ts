import type { Page } from 'playwright-core';

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
 * The scan runs inside the page sweep (e2e/a11y.ts) on each page it loads in Arabic, light theme, at
 * both widths, so a page is loaded once for axe, digits and layout; A11Y_WIDTHS and A11Y_PAGES
 * narrow it.
 */

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
export async function westernDigitTexts(page: Page): Promise<Seen[]> {
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

/** The Western-digit leaks on the page as "page: element: text" lines, one per distinct element and text. */
export async function digitLeaks(page: Page, name: string): Promise<string[]> {
  const leaks = (await westernDigitTexts(page)).filter((s) => leakIn(s.text));
  return [...new Map(leaks.map((l) => [`${l.where}|${l.text}`, `${name}: ${l.where}: "${l.text}"`])).values()];
}
