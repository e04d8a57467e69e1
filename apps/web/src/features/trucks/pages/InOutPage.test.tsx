import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n, { loadNamespaces } from '../../../i18n';
import { truckFixture } from '../../../test/fixtures';
import { renderWithApp, stubApi } from '../../../test/render';
import InOutPage from './InOutPage';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const TABUK = { id: 1, nameEn: 'Tabuk', nameAr: 'تبوك', regionId: 7, lat: 28.41, lng: 36.53 };
const truck = truckFixture();
const log = (direction: string) => ({
  message: 'OK',
  data: {
    direction,
    from: '2026-11-26T08:00:00.000Z',
    to: '2026-12-03T08:00:00.000Z',
    counts: { in: { total: 1, capped: false }, out: { total: 1000, capped: true } },
    ratio: { loads: 5, trucks: 2, ratio: 2.5, hours: 24 },
    items: direction === 'in' ? [truck] : [],
    nextCursor: null,
  },
});

function stub() {
  return stubApi((_method, path) => {
    if (path.startsWith('/cities')) return { body: { message: 'OK', data: { items: [TABUK], total: 1 } } };
    if (path.startsWith('/equipmentTypes'))
      return {
        body: { message: 'OK', data: { items: [{ code: 'flatbed_trailer', nameEn: 'Flatbed trailer', nameAr: 'سطحة', class: 'heavy', maxWeightKg: 25000 }] } },
      };
    if (path.startsWith('/truckFilters'))
      return {
        body: {
          message: 'OK',
          data: {
            radiusOptionsKm: [50, 100, 200],
            sorts: ['deadhead'],
            loadTypes: ['FTL', 'LTL'],
            rateBasis: ['trip', 'km'],
            destinationsMax: 10,
            windowMaxDays: 30,
          },
        },
      };
    if (path.startsWith('/truckInOutLogs')) return { body: log(new URLSearchParams(path.split('?')[1]).get('direction') ?? 'in') };
    return undefined;
  });
}

describe('Truck In / Truck Out page', () => {
  it('asks for a city, then shows the counts ("1,000+"), the ratio, the trucks, the Out tab and Refresh', { timeout: 60_000 }, async () => {
    await loadNamespaces(['trucks']);
    const calls = stub();
    renderWithApp(<InOutPage kind="trucks" />, { path: '/brokers/truck-in-truck-out' });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByTestId('inout-pick-city')).toBeTruthy();
    await user.type(screen.getAllByLabelText('City')[0], 'Tab');
    await user.click(await screen.findByRole('option', { name: 'Tabuk', hidden: true }));
    await user.click(screen.getByTestId('inout-submit'));

    const results = await screen.findByTestId('inout-results');
    expect(within(results).getByText('Falcon Haulage')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('inout-tab-out').textContent).toContain('1,000+'));
    expect(screen.getByTestId('inout-tab-in').textContent).toContain('Trucks in');
    expect(screen.getByTestId('inout-ratio').textContent).toContain('2.5');
    const first = calls.find((c) => c.path.startsWith('/truckInOutLogs?'))!;
    const q = new URLSearchParams(first.path.split('?')[1]);
    expect(q.get('cityId')).toBe('1');
    expect(q.get('radius')).toBe('100');
    expect(Date.parse(q.get('to')!) - Date.parse(q.get('from')!)).toBe(7 * 86_400_000);

    await user.click(screen.getByTestId('inout-tab-out'));
    expect(await screen.findByTestId('inout-empty')).toBeTruthy();
    expect(calls.some((c) => c.path.startsWith('/truckInOutLogs?') && c.path.includes('direction=out'))).toBe(true);

    await user.click(screen.getByTestId('inout-refresh'));
    await waitFor(() => expect(calls.some((c) => c.path.startsWith('/truckInOutLogs/refresh?'))).toBe(true));
  });

  it('reads in Arabic, right to left', { timeout: 60_000 }, async () => {
    await i18n.changeLanguage('ar');
    await loadNamespaces(['trucks']);
    stub();
    renderWithApp(<InOutPage kind="loads" />, { path: '/carriers/shipment-in-shipment-out', dir: 'rtl' });
    expect(await screen.findByText('الشحنات الداخلة / الخارجة')).toBeTruthy();
    expect(screen.getByTestId('inout-pick-city').textContent).toBe('اختر مدينة لترى ما يدخلها ويخرج منها.');
  });
});
