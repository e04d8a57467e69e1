import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { DirectionProvider, MantineProvider, localStorageColorSchemeManager } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { storedLanguage } from '../i18n';
import { ApiError } from '../lib/api';
import { useAfterFirstPaint } from '../lib/afterPaint';
import { digitSystem } from '../lib/digits';
import { localizedTheme, resolveTextColors } from './theme';

/** A 4xx answer will not change on retry (and 403 suspended must surface at once); network/5xx errors get one retry. */
const retry = (failures: number, err: unknown) => failures < 1 && !(err instanceof ApiError && err.status >= 400 && err.status < 500);
export const queryClient = new QueryClient({ defaultOptions: { queries: { retry, staleTime: 15_000, refetchOnWindowFocus: false } } });
/** Theme persisted under the spec's client key `theme`. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'theme' });
/**
 * The toast container (with react-remove-scroll and the transition library) comes after the
 * first paint (lib/afterPaint): `notifications.show()` writes to a store that is in the first
 * download, and the container shows what the store holds once it mounts, so a toast raised
 * earlier is not lost.
 */
const Notifications = lazy(() => import('@mantine/notifications/container').then((m) => ({ default: m.Notifications })));

export function Providers({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const digits = digitSystem(i18n.language);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- rebuilt when the language or the digit system changes
  const theme = useMemo(() => localizedTheme(t), [t, i18n.language, digits]);
  const painted = useAfterFirstPaint();
  return (
    <DirectionProvider initialDirection={storedLanguage() === 'ar' ? 'rtl' : 'ltr'} detectDirection>
      <MantineProvider theme={theme} cssVariablesResolver={resolveTextColors} colorSchemeManager={colorSchemeManager} defaultColorScheme="light">
        {painted && (
          <Suspense fallback={null}>
            <Notifications position="top-center" />
          </Suspense>
        )}
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>
  );
}
