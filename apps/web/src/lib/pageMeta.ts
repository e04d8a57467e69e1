import { createContext, useContext, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { claimTitle } from './pageTitle';

/** A page's head as the browser shows it: the document title and the meta description. */
export interface PageHead {
  title: string;
  description?: string;
}

/**
 * Where a render without effects collects the page's head: the build's prerender (src/prerender.tsx)
 * provides it, so the prerendered city and lane pages are served with their own title and
 * description (issue 23). Null in the browser.
 */
export const PageHeadSink = createContext<((head: PageHead) => void) | null>(null);

/**
 * "Riyadh → Jeddah loads · Masar" / "… · مسار": the document title of a page titled `title`, in
 * the one format the app shell uses for every page (pageTitle.ts), with the app's name in the
 * page's language (issue 47: public pages were titled "… — Masar" in Arabic too).
 */
export const documentTitle = (title: string, appName: string) => `${title} · ${appName}`;

/**
 * The page's title and description (search results, shared links) in the current language:
 * `<title>{title} · Masar</title>` (documentTitle) and `<meta name="description">`. Restored on leave.
 */
export function usePageMeta(title: string, description?: string) {
  const { t } = useTranslation('common');
  const full = documentTitle(title, t('appName'));
  useContext(PageHeadSink)?.({ title: full, description });
  useEffect(() => {
    const before = document.title;
    const release = claimTitle();
    document.title = full;
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    const hadMeta = !!meta;
    const beforeDesc = meta?.content ?? '';
    if (description) {
      if (!meta) {
        meta = document.createElement('meta');
        meta.name = 'description';
        document.head.appendChild(meta);
      }
      meta.content = description;
    }
    return () => {
      release();
      document.title = before;
      if (description && meta) {
        if (hadMeta) meta.content = beforeDesc;
        else meta.remove();
      }
    };
  }, [full, description]);
}
