/**
 * Build-time prerender of the guest home page and each role's load search (issue 9, LCP ≤ 1.0 s),
 * and of the public city and city-to-city lane pages with their titles and descriptions (issue 23):
 * the pages' own components rendered to HTML once per language by scripts/prerender.ts (Vite SSR build of this
 * file, run under a jsdom window). The server puts that HTML inside `#root` of the app shell for
 * the visitor it was made for (apps/server/src/plugins/web.ts), so the page is painted with the
 * first bytes instead of after the JavaScript has run; main.tsx then renders the same page over
 * it in one commit. Queries are not run here: loads and lists show their loading state.
 */
import { renderToString } from 'react-dom/server';
import type { ReactNode } from 'react';
import { StaticRouter } from 'react-router';
import i18n from 'i18next';
import { i18nReady, loadLanguage } from './i18n';
import { App } from './app/App';
import { preloadRoute } from './app/routes';
import { queryClient } from './app/Providers';
import { PageHeadSink, type PageHead } from './lib/pageMeta';

/**
 * A page's HTML (the children of `#root`) in `lang`, as a visitor of `accountType` sees it before
 * any data arrives (null: a guest). A signed-in render needs the session cookies the app reads
 * (`userType`, `uid`): the caller sets them on the jsdom document; the profile stays unloaded, so
 * nothing personal is in the HTML.
 */
export async function renderPage(path: string, lang: 'en' | 'ar'): Promise<{ html: string; head: PageHead | null }> {
  await i18nReady;
  await loadLanguage(lang);
  await i18n.changeLanguage(lang);
  await preloadRoute(path);
  const Router = ({ children }: { children: ReactNode }) => <StaticRouter location={path}>{children}</StaticRouter>;
  // a page that names itself (usePageMeta: the city and lane pages) hands its title and description here
  let head: PageHead | null = null;
  const html = renderToString(
    <PageHeadSink.Provider value={(h) => (head = h)}>
      <App Router={Router} />
    </PageHeadSink.Provider>,
  );
  // the render registered its (never run) queries; dropping them clears their garbage-collection
  // timers, so the build script ends by itself
  queryClient.clear();
  return { html, head };
}
