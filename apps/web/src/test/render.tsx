import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';

export type Route = (method: string, path: string, body: unknown) => { status?: number; body: unknown } | undefined;

/** Stub fetch with a router over `/api/v1` paths; records the calls. */
export function stubApi(route: Route) {
  const calls: { method: string; path: string; body: unknown; headers: Record<string, string> }[] = [];
  vi.stubGlobal('fetch', async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body;
    const path = url.pathname.replace(/^\/api\/v1/, '') + url.search;
    calls.push({ method, path, body, headers: Object.fromEntries(new Headers(init?.headers).entries()) });
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
