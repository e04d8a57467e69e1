/**
 * Deploys do not blank pages (issue 22). A tab opened before a deploy still runs the old build;
 * when it navigates to a page whose hashed chunk the deploy removed, the server answers 404
 * (apps/server/src/plugins/web.ts `isAssetPath`) and Vite fires `vite:preloadError` on window.
 * The page then reloads ONCE, on the same URL, so the new build opens where the user was
 * (react-router reads the route from the URL). A second failure soon after (the new build is
 * broken too, or the network is down) does not reload again: the error reaches the page's error
 * handling instead of looping.
 */

/** sessionStorage key: when this tab last reloaded itself for a failed chunk (ms since the epoch). */
export const CHUNK_RELOAD_KEY = 'masar.chunkReloadAt';
/** Within this many milliseconds of a reload, a failed chunk does not reload again. */
export const CHUNK_RELOAD_WINDOW_MS = 60_000;

interface ReloadTarget {
  addEventListener(type: 'vite:preloadError', listener: (event: Event) => void): void;
  removeEventListener(type: 'vite:preloadError', listener: (event: Event) => void): void;
  sessionStorage: Pick<Storage, 'getItem' | 'setItem'>;
  location: Pick<Location, 'reload'>;
}

/**
 * Listen for Vite's `vite:preloadError` and reload the page once per {@link CHUNK_RELOAD_WINDOW_MS}.
 * When it reloads it calls `event.preventDefault()`, so the failed import is not thrown into the
 * page being replaced. Without sessionStorage (blocked) it never reloads: no guard, no loop.
 * @returns a function that removes the listener.
 */
export function reloadOnceOnStaleChunk(target: ReloadTarget = window, now: () => number = Date.now): () => void {
  const onPreloadError = (event: Event) => {
    try {
      const last = Number(target.sessionStorage.getItem(CHUNK_RELOAD_KEY)) || 0;
      const at = now();
      if (at - last >= 0 && at - last < CHUNK_RELOAD_WINDOW_MS) return;
      target.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(at));
    } catch {
      return;
    }
    event.preventDefault();
    target.location.reload();
  };
  target.addEventListener('vite:preloadError', onPreloadError);
  return () => target.removeEventListener('vite:preloadError', onPreloadError);
}
