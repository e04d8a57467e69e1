import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RateAlert } from '@masar/shared';
import i18n, { loadNamespaces } from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import RateAlertsPage from './RateAlertsPage';

// a signed-in shipper (the session itself is not under test here)
vi.mock('../../../components/useViewer', () => ({
  useViewer: () => ({ isSignedIn: true, profile: { id: 'u1', email: 'me@example.com' }, accountType: 1, isLoading: false }),
  useRoleBase: () => '/shippers',
}));

beforeAll(async () => {
  await loadNamespaces(['alerts'], 'en');
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const alert = (over: Partial<RateAlert> = {}): RateAlert => ({
  id: '01a201c4-0000-7000-8000-000000000001',
  origin: { id: 3, nameEn: 'Riyadh', nameAr: 'الرياض' },
  destination: { id: 18, nameEn: 'Jeddah', nameAr: 'جدة' },
  equipment: null,
  kind: 'spot',
  direction: 'up',
  threshold: 12.5,
  unit: 'pct',
  email: 'me@example.com',
  active: true,
  createdAt: '2026-11-26T10:00:00.000Z',
  lastTriggeredAt: null,
  ...over,
});
const ok = (data: unknown, status = 200) => ({ status, body: { message: 'OK', data } });

describe('RateAlertsPage', () => {
  it('lists my alerts, pauses one, and refuses a create without a lane before calling the API (the shared schema)', async () => {
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path === '/rateAlerts') return ok({ items: [alert()] });
      if (method === 'PATCH' && path.startsWith('/rateAlerts/')) return ok(alert({ active: false }));
      if (method === 'GET') return ok({ items: [] });
      return undefined;
    });
    renderWithApp(<RateAlertsPage />, { path: '/shippers/rate-change-alerts' });
    const card = await screen.findByTestId('alert-card');
    expect(within(card).getByTestId('alert-lane').textContent).toBe('Riyadh → Jeddah');
    expect(card.textContent).toContain('Goes up by 12.5 %');
    expect(screen.getByTestId<HTMLInputElement>('alert-email').value).toBe('me@example.com');
    fireEvent.click(within(card).getByTestId('alert-toggle'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ active: false });
    // (the form's submit: jsdom's own required-field check would stop a click first)
    fireEvent.submit(screen.getByTestId('alert-submit').closest('form')!);
    expect(await screen.findAllByText('Enter a valid city.')).toHaveLength(2);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('creates an alert from the lane in the URL with an Idempotency-Key', async () => {
    const calls = stubApi((method, path) => {
      if (method === 'POST' && path === '/rateAlerts') return ok(alert(), 201);
      if (method === 'GET' && path === '/rateAlerts') return ok({ items: [] });
      if (method === 'GET') return ok({ items: [] });
      return undefined;
    });
    renderWithApp(<RateAlertsPage />, { path: '/shippers/rate-change-alerts?origin=3&destination=18&kind=contract' });
    await screen.findByTestId('alerts-empty');
    fireEvent.submit(screen.getByTestId('alert-submit').closest('form')!);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({
      originCityId: 3,
      destinationCityId: 18,
      kind: 'contract',
      direction: 'both',
      threshold: 10,
      unit: 'pct',
      email: 'me@example.com',
    });
    expect(post.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
