import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { SlotsProvider } from '../components/slots';
import { featureSlots } from '../app/slots';

export type Route = (method: string, path: string, body: unknown) => { status?: number; body: unknown } | undefined;

/**
 * What a stubbed fetch was asked: the typed client (lib/api) hands fetch a Request; older
 * callers pass (url, init).
 */
export async function readFetch(input: string | URL | Request, init?: RequestInit) {
  if (input instanceof Request) {
    const text = input.method === 'GET' || input.method === 'HEAD' ? '' : await input.clone().text();
    const json = (input.headers.get('content-type') ?? '').includes('application/json');
    let body: unknown = text || undefined;
    if (json && text) body = JSON.parse(text);
    return { url: new URL(input.url), method: input.method, headers: Object.fromEntries(input.headers.entries()), body };
  }
  return {
    url: new URL(String(input), 'http://localhost'),
    method: init?.method ?? 'GET',
    headers: Object.fromEntries(new Headers(init?.headers).entries()),
    body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
  };
}

/** Stub fetch with a router over `/api/v1` paths; records the calls. */
export function stubApi(route: Route) {
  const calls: { method: string; path: string; body: unknown; headers: Record<string, string> }[] = [];
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const { url, method, headers, body } = await readFetch(input, init);
    const path = url.pathname.replace(/^\/api\/v1/, '') + url.search;
    calls.push({ method, path, body, headers });
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
          <SlotsProvider value={featureSlots}>
            <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
          </SlotsProvider>
        </QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>,
  );
}
