import { useEffect, useState } from 'react';
import type { Lang } from './format';

let arabicLoaded = false;

/**
 * The dayjs locale for Mantine's date pickers (DatesProvider `locale`): Arabic month and day
 * names are fetched the first time an Arabic reader meets a date picker, never by English
 * readers nor by pages without one. English until the chunk has arrived.
 */
export function useDatesLocale(lang: Lang): 'en' | 'ar' {
  const [ready, setReady] = useState(arabicLoaded);
  useEffect(() => {
    if (lang !== 'ar' || arabicLoaded) return;
    let live = true;
    void import('dayjs/locale/ar').then(() => {
      arabicLoaded = true;
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, [lang]);
  return lang === 'ar' && (ready || arabicLoaded) ? 'ar' : 'en';
}
