import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';

/** What has the keyboard focus, and whether it shows a focus ring (outline or box-shadow). */
export interface Focused {
  tag: string;
  testId: string | null;
  name: string;
  ring: boolean;
  how: string;
}

/**
 * The focused element and its focus ring. A visually hidden input (a segmented control's or a
 * checkbox's native radio) draws its ring on what the user sees: its label or next sibling.
 */
export function focused(page: Page): Promise<Focused> {
  return page.evaluate<Focused>(FOCUSED_JS);
}

// A string, not a function: the test runner's transform may wrap functions in helpers the page lacks.
const FOCUSED_JS = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { tag: 'BODY', testId: null, name: '', ring: false, how: 'nothing focused' };
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    const cs = getComputedStyle(e);
    return r.width > 2 && r.height > 2 && cs.opacity !== '0' && cs.visibility !== 'hidden' && cs.clipPath === 'none';
  };
  // a field drawn by its wrapper (Mantine's Input, a time picker's hour and minute fields) shows
  // the ring on the wrapper (:focus-within)
  const candidates = [el];
  const wrapper = el.closest('.mantine-Input-input');
  if (wrapper && wrapper !== el) candidates.push(wrapper);
  if (!shown(el)) {
    if (el.labels && el.labels[0]) candidates.push(el.labels[0]);
    if (el.nextElementSibling) candidates.push(el.nextElementSibling);
    if (el.parentElement) candidates.push(el.parentElement);
  }
  let how = '';
  const ring = candidates.some((c) => {
    const cs = getComputedStyle(c);
    const outline = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0;
    const shadow = cs.boxShadow !== 'none';
    how = c.tagName.toLowerCase() + ' outline ' + cs.outlineStyle + ' ' + cs.outlineWidth + ' ' + cs.outlineColor + ', box-shadow ' + cs.boxShadow;
    return (outline || shadow) && shown(c);
  });
  const name = el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].textContent) || el.textContent || '';
  return { tag: el.tagName, testId: el.getAttribute('data-testid'), name: name.trim().slice(0, 60), ring, how };
})()`;

/** Is `target` (or something inside it) the focused element? */
const holdsFocus = (target: Locator) => target.evaluate((t) => t === document.activeElement || t.contains(document.activeElement));

/**
 * Press Tab (or Shift+Tab) until `target` has the focus (nothing if it has it already), at most
 * `max` times; every control passed on the way must show a visible focus ring. Returns the stops.
 */
export async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}): Promise<Focused[]> {
  const stops: Focused[] = [];
  if (await holdsFocus(target)) return stops;
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const f = await focused(page);
    // past the last control the focus leaves the page for the browser's own UI; the next Tab comes back
    if (f.tag === 'BODY') continue;
    stops.push(f);
    assert.ok(f.ring, `no visible focus ring on ${f.tag} ${f.testId ?? ''} "${f.name}" (${f.how})`);
    if (await holdsFocus(target)) return stops;
  }
  throw new Error(`${back ? 'Shift+Tab' : 'Tab'} did not reach the target in ${max} presses: ${stops.map((s) => s.testId ?? s.name).join(' → ')}`);
}
