import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import './app/global.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { applyLanguage, i18nReady, storedLanguage } from './i18n';
import { App } from './app/App';
import { prefetchRouteData, preloadRoute } from './app/routes';
import { queryClient } from './app/Providers';
import { reloadOnceOnStaleChunk } from './lib/chunkReload';
import { tokenManager } from './lib/session';
import { readStoredSession } from './lib/storage';

// After a deploy, a chunk of the build this tab runs may be gone: reload once, on the same URL.
reloadOnceOnStaleChunk();

applyLanguage(storedLanguage());
const page = preloadRoute(window.location.pathname);
// The access token lives in memory only: after a reload a signed-in user's first call must
// regenerate it from the refresh cookie. Start that now, in parallel with the page's chunk and the
// first render, rather than when the page's first query runs half a second later (issue 23: the
// load search's first row waited for it); single-flight, the page's queries wait for this same
// request. The page's first data (the board's first search) starts with it.
const { uid, userType } = readStoredSession();
let prefetched = false;
if (uid && userType) {
  void tokenManager.getAccessToken();
  prefetched = prefetchRouteData(window.location.pathname, window.location.search, queryClient, { isSignedIn: true, accountType: userType });
}
const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// The first render waits for the reader's strings (one small chunk, fetched in parallel with the
// page's). Over the server's prerendered HTML (the guest home page, src/prerender.tsx) it also
// waits for the page's chunk, so the same page replaces it in one commit, never the loader.
void Promise.all([i18nReady, root.firstElementChild ? page.catch(() => null) : null]).then(() => {
  // With the page's first data under way: a transition. The first render (0.5 s of script on a
  // slow machine) yields to the browser every few milliseconds, so the token and the first search
  // started above are sent and answered meanwhile, and the first commit already holds the board's
  // rows; the prerendered HTML stays on screen until that commit. Without data to wait for, the
  // sooner commit wins: until it, a click on the prerendered page (a button, the language switch)
  // does nothing.
  if (prefetched) startTransition(() => createRoot(root).render(app));
  else createRoot(root).render(app);
});
