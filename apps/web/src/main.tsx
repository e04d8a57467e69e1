import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { applyLanguage, i18nReady, storedLanguage } from './i18n';
import { App } from './app/App';
import { preloadRoute } from './app/routes';

applyLanguage(storedLanguage());
preloadRoute(window.location.pathname);
// the first render waits for the reader's strings (one small chunk, fetched in parallel with the page's)
void i18nReady.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
