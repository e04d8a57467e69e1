/**
 * Build-time prerender of the home page for a guest (issue 9, home LCP ≤ 1.0 s): the page's own
 * components rendered to HTML once per language by scripts/prerender.ts (Vite SSR build of this
 * file, run under a jsdom window). The server puts that HTML inside `#root` of the app shell for
 * a signed-out visitor of `/` (apps/server/src/plugins/web.ts), so the hero is painted with the
 * first bytes instead of after the JavaScript has run; main.tsx then renders the same page over
 * it in one commit. Queries are not run here: the loads and lanes show their loading state.
 */
import { renderToString } from 'react-dom/server';
import type { ReactNode } from 'react';
import { StaticRouter } from 'react-router';
import i18n from 'i18next';
import { i18nReady, loadLanguage } from './i18n';
import { App } from './app/App';
import { preloadRoute } from './app/routes';

/** The guest home page's HTML (the children of `#root`) in `lang`. */
export async function renderHome(lang: 'en' | 'ar'): Promise<string> {
  await i18nReady;
  await loadLanguage(lang);
  await i18n.changeLanguage(lang);
  await preloadRoute('/');
  const Router = ({ children }: { children: ReactNode }) => <StaticRouter location="/">{children}</StaticRouter>;
  return renderToString(<App Router={Router} />);
}
