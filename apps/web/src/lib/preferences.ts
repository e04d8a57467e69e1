import { useCallback } from 'react';
import { useComputedColorScheme, useDirection, useMantineColorScheme } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { applyLanguage } from '../i18n';

/**
 * Current language and a switch that persists it (cookie + local storage), flips <html lang
 * dir> and Mantine's direction, and refetches server data (its messages are localized).
 */
export function useLanguage() {
  const { i18n } = useTranslation();
  const { setDirection } = useDirection();
  const queryClient = useQueryClient();
  const language: 'en' | 'ar' = i18n.language === 'ar' ? 'ar' : 'en';
  const setLanguage = useCallback(
    (lang: 'en' | 'ar') => {
      applyLanguage(lang);
      setDirection(lang === 'ar' ? 'rtl' : 'ltr');
      void queryClient.invalidateQueries();
    },
    [setDirection, queryClient],
  );
  return { language, setLanguage, dir: language === 'ar' ? ('rtl' as const) : ('ltr' as const) };
}

/** Light/dark theme, persisted under the spec's client key `theme` (see app/Providers.tsx). */
export function useTheme() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const toggle = useCallback(() => setColorScheme(scheme === 'dark' ? 'light' : 'dark'), [scheme, setColorScheme]);
  return { scheme, toggle };
}
