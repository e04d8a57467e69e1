import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import IntegrationsPage from './IntegrationsPage';

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const KEY = 'msk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const keyRow = (over: Record<string, unknown> = {}) => ({
  id: '01a20800-0000-7000-8000-000000000001',
  name: 'Our TMS',
  prefix: KEY.slice(0, 10),
  scopes: ['loads:read', 'loads:write'],
  ratePerMinute: 120,
  createdAt: '2026-11-23T08:00:00Z',
  lastUsedAt: null,
  useCount: 0,
  revokedAt: null,
  ...over,
});

describe('integrations (API keys and webhooks)', () => {
  it('creates a scoped key, shows it once, lists it without the secret and revokes it after confirming', { timeout: 60_000 }, async () => {
    await i18n.changeLanguage('en');
    let keys: Record<string, unknown>[] = [];
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path.startsWith('/api-keys')) return { body: { message: 'OK', data: { items: keys } } };
      if (method === 'GET' && path.startsWith('/webhooks')) return { body: { message: 'OK', data: { items: [] } } };
      if (method === 'POST' && path === '/api-keys') {
        keys = [keyRow()];
        return { status: 201, body: { message: 'OK', data: { ...keyRow(), key: KEY } } };
      }
      if (method === 'DELETE' && path.startsWith('/api-keys/')) {
        keys = [keyRow({ revokedAt: '2026-11-23T09:00:00Z' })];
        return { body: { message: 'OK', data: null } };
      }
      return undefined;
    });
    renderWithApp(<IntegrationsPage />, { path: '/brokers/account/integrations' });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('No API keys yet. Create one to connect your systems.')).toBeTruthy();
    // the shared schema refuses a nameless key before any request
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.type(screen.getByLabelText(/Key name/), 'Our TMS');
    await user.click(screen.getByLabelText('Post and edit loads'));
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect((await screen.findByTestId('secret-value')).textContent).toBe(KEY);
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ name: 'Our TMS', scopes: ['loads:read', 'loads:write'], ratePerMinute: 120 });
    const table = await screen.findByTestId('api-keys-table');
    expect(table.textContent).toContain('Our TMS');
    expect(table.textContent).not.toContain(KEY);
    await user.click(within(table).getByRole('button', { name: 'Revoke key Our TMS' }));
    await user.click(await screen.findByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === `/api-keys/${keyRow().id}`)).toBe(true));
    expect(await within(screen.getByTestId('api-keys-table')).findByText('Revoked')).toBeTruthy();
  });

  it('adds a webhook in Arabic and shows its signing secret', { timeout: 60_000 }, async () => {
    await i18n.changeLanguage('ar');
    const calls = stubApi((method, path) => {
      if (method === 'GET' && (path.startsWith('/api-keys') || path.startsWith('/webhooks'))) return { body: { message: 'OK', data: { items: [] } } };
      if (method === 'POST' && path === '/webhooks')
        return {
          status: 201,
          body: {
            message: 'OK',
            data: {
              id: '01a20800-0000-7000-8000-000000000009',
              url: 'https://tms.example.sa/masar',
              description: null,
              events: ['offer.created'],
              active: true,
              createdAt: '2026-11-23T08:00:00Z',
              secret: 'whsec_abc',
            },
          },
        };
      return undefined;
    });
    renderWithApp(<IntegrationsPage />, { path: '/brokers/account/integrations', dir: 'rtl' });
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText(/عنوان الاستقبال/), 'https://tms.example.sa/masar');
    await user.click(screen.getByRole('button', { name: 'إضافة ويب هوك' }));
    expect((await screen.findByTestId('secret-value')).textContent).toBe('whsec_abc');
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      url: 'https://tms.example.sa/masar',
      events: ['offer.created', 'offer.accepted', 'load.booked'],
    });
    await i18n.changeLanguage('en');
  });
});
