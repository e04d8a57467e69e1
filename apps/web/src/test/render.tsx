import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';

/** jsdom lacks browser APIs Mantine uses. */
export function polyfillBrowser() {
  if (typeof window.matchMedia !== 'function') {
    const matchMedia = (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    });
    Object.defineProperty(window, 'matchMedia', { value: matchMedia, configurable: true });
  }
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
      configurable: true,
    });
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  if (typeof Element.prototype.scrollIntoView !== 'function')
    Object.defineProperty(Element.prototype, 'scrollIntoView', { value: () => {}, configurable: true });
}

export type Route = (method: string, path: string, body: unknown) => { status?: number; body: unknown } | undefined;

/** Stub fetch with a router over `/api/v1` paths; records the calls. */
export function stubApi(route: Route) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body;
    const path = url.pathname.replace(/^\/api\/v1/, '') + url.search;
    calls.push({ method, path, body });
    const r = route(method, path, body) ?? { status: 404, body: { message: 'not found', code: 'NOT_FOUND' } };
    return new Response(JSON.stringify(r.body), { status: r.status ?? 200, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

export function renderWithApp(ui: ReactNode, { dir = 'ltr', path = '/carriers/fleet-management' }: { dir?: 'ltr' | 'rtl'; path?: string } = {}) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <DirectionProvider initialDirection={dir}>
      <MantineProvider>
        <QueryClientProvider client={qc}>
          <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>,
  );
}
