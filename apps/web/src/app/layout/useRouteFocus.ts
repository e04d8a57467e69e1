import { useEffect, useRef } from 'react';
import { titleClaimed } from '../../lib/pageTitle';

const headingOf = (main: HTMLElement) => main.querySelector<HTMLElement>('h1') ?? main.querySelector<HTMLElement>('h2');

/**
 * After a route change (not the first page load) keyboard and screen-reader focus moves to the
 * page's heading (h1, else the first h2), so it does not fall back to <body>; on every page
 * (and language) the tab is titled "{heading} · {appName}" unless the page set its own title.
 * Lazy pages and data arrive later: the main element is watched until the route changes.
 */
export function useRouteFocus(pathname: string, lang: string, appName: string) {
  const shown = useRef<string | null>(null);
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return;
    const moveFocus = shown.current !== null && shown.current !== pathname;
    shown.current = pathname;
    let focused: HTMLElement | null = null;
    const apply = () => {
      const h = headingOf(main);
      if (!h) return;
      const text = h.textContent?.trim();
      const title = `${text} · ${appName}`;
      if (text && !titleClaimed() && document.title !== title) document.title = title;
      // move focus once to the h1 (from the link or button that navigated, or <body>), and from an
      // earlier h2 (a loading state) on to the h1 when it comes; never away from a field on the page or an open dialog
      const active = document.activeElement;
      if (
        moveFocus &&
        h !== focused &&
        (!focused || focused.tagName === 'H2') &&
        (!active || active === focused || (!main.contains(active) && !active.closest('[role="dialog"]')))
      ) {
        if (!h.hasAttribute('tabindex')) h.setAttribute('tabindex', '-1');
        h.focus({ preventScroll: true });
        focused = h;
      }
    };
    apply();
    // a render commits many mutations: look once after them
    let pending: ReturnType<typeof setTimeout> | null = null;
    const mo = new MutationObserver(() => {
      pending ??= setTimeout(() => {
        pending = null;
        apply();
      }, 30);
    });
    mo.observe(main, { childList: true, subtree: true, characterData: true });
    return () => {
      mo.disconnect();
      if (pending !== null) clearTimeout(pending);
    };
  }, [pathname, lang, appName]);
}
