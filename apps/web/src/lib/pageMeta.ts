import { createContext, useContext, useEffect } from 'react';
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

/** "Riyadh → Jeddah loads — Masar": the document title of a page titled `title`. */
export const documentTitle = (title: string) => `${title} — Masar`;

/**
 * The page's title and description (search results, shared links) in the current language:
 * `<title>Masar — {title}</title>` and `<meta name="description">`. Restored on leave.
 */
export function usePageMeta(title: string, description?: string) {
  useContext(PageHeadSink)?.({ title: documentTitle(title), description });
  useEffect(() => {
    const before = document.title;
    const release = claimTitle();
    document.title = documentTitle(title);
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
  }, [title, description]);
}
