import { useEffect } from 'react';

/**
 * Document titles (issue 23: many tabs open, each must say which page it is). By default the app
 * shell titles a page "{its h1 (or first h2)} · Masar" in the page's language (useRouteFocus in
 * app/layout). A page that knows better (load details: "Riyadh → Jeddah · LD-001305 · Masar")
 * claims its title with usePageTitle; the shell then leaves it alone.
 */
let claims = 0;

/** Does the page on screen set its own title? */
export const titleClaimed = () => claims > 0;

/** Mark the title as set by the page on screen (usePageMeta, usePageTitle); call the result when it unmounts. */
export function claimTitle(): () => void {
  claims++;
  let released = false;
  return () => {
    if (!released) claims--;
    released = true;
  };
}

/** Title the page "{part} · {part} · {appName}"; empty parts are left out; no parts: the shell's title. */
export function usePageTitle(parts: (string | null | undefined)[], appName: string) {
  const title = parts.some(Boolean) ? [...parts.filter(Boolean), appName].join(' · ') : null;
  useEffect(() => {
    if (!title) return;
    const release = claimTitle();
    document.title = title;
    return release;
  }, [title]);
}
