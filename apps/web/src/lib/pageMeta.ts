import { useEffect } from 'react';
import { claimTitle } from './pageTitle';

/**
 * The page's title and description (search results, shared links) in the current language:
 * `<title>Masar — {title}</title>` and `<meta name="description">`. Restored on leave.
 */
export function usePageMeta(title: string, description?: string) {
  useEffect(() => {
    const before = document.title;
    const release = claimTitle();
    document.title = `${title} — Masar`;
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
