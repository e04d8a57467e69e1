import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { applyLanguage, i18nReady, storedLanguage } from './i18n';
import { App } from './app/App';
import { preloadRoute } from './app/routes';
import { reloadOnceOnStaleChunk } from './lib/chunkReload';

// After a deploy, a chunk of the build this tab runs may be gone: reload once, on the same URL.
reloadOnceOnStaleChunk();

applyLanguage(storedLanguage());
const page = preloadRoute(window.location.pathname);
const root = document.getElementById('root')!;
// The first render waits for the reader's strings (one small chunk, fetched in parallel with the
// page's). Over the server's prerendered HTML (the guest home page, src/prerender.tsx) it also
// waits for the page's chunk, so the same page replaces it in one commit, never the loader.
void Promise.all([i18nReady, root.firstElementChild ? page.catch(() => null) : null]).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
