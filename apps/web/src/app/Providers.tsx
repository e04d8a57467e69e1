import type { ReactNode } from 'react';
import { DirectionProvider, MantineProvider, localStorageColorSchemeManager } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { storedLanguage } from '../i18n';
import { theme } from './theme';

export const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, staleTime: 15_000, refetchOnWindowFocus: false } } });
/** Theme persisted under the spec's client key `theme`. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'theme' });

export function Providers({ children }: { children: ReactNode }) {
  return (
    <DirectionProvider initialDirection={storedLanguage() === 'ar' ? 'rtl' : 'ltr'} detectDirection>
      <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme="light">
        <Notifications position="top-center" />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>
  );
}
