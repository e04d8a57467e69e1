import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RateForecast } from '@masar/shared';
import i18n, { loadNamespaces } from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import RateForecastPage from './RateForecastPage';

// a guest on the public page (the session itself is not under test here)
vi.mock('../../../components/useViewer', () => ({
  useViewer: () => ({ isSignedIn: false, profile: null, accountType: null, isLoading: false }),
  useRoleBase: () => '',
}));

beforeAll(async () => {
  await loadNamespaces(['forecast'], 'en');
  await loadNamespaces(['forecast'], 'ar');
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const day = (n: number) => new Date(Date.UTC(2026, 10, 26 + n)).toISOString().slice(0, 10);
const forecast = (over: Partial<RateForecast> = {}): RateForecast => ({
  origin: { id: 3, nameEn: 'Riyadh', nameAr: 'الرياض' },
  destination: { id: 18, nameEn: 'Jeddah', nameAr: 'جدة' },
  equipment: null,
  kind: 'spot',
  model: 'mstl_ets',
  bandLevel: 0.8,
  asOf: day(-1),
  history: Array.from({ length: 30 }, (_, i) => ({ date: day(i - 30), value: 2400 + i, records: 4 })),
  daily: Array.from({ length: 8 }, (_, i) => ({ date: day(i), value: 2450 + i, low: 2300 + i, high: 2600 + i })),
  weekly: Array.from({ length: 12 }, (_, i) => ({ weekStart: day(7 * i), value: 2460, low: 2250, high: 2650 })),
  measuredError: { scope: 'lane', maePct: 6.04, maeSar: 150, bandCoverage: 0.8, backtestWeeks: 12, naiveMaePct: 8.5 },
  ...over,
});
const api = (f: RateForecast) =>
  stubApi((method, path) => {
    if (path.startsWith('/rates/forecast')) return { body: { message: 'OK', data: f } };
    if (path.startsWith('/equipmentTypes') || path.startsWith('/regions') || path.startsWith('/cities'))
      return { body: { message: 'OK', data: { items: [] } } };
    return undefined;
  });

describe('RateForecastPage', () => {
  it('shows the three loading texts in sequence, then the chart, the measured error and the 12 weeks; the table view lists the days', async () => {
    const calls = api(forecast());
    renderWithApp(<RateForecastPage />, { path: '/rate-forecast?origin=3&destination=18' });
    expect((await screen.findByTestId('forecast-loading-text')).textContent).toBe('Collecting data…');
    expect(await screen.findByText('Analyzing data…', {}, { timeout: 2000 })).toBeTruthy();
    expect(await screen.findByText('Your rate is on the way…', {}, { timeout: 2000 })).toBeTruthy();
    const result = await screen.findByTestId('forecast-result', {}, { timeout: 3000 });
    expect(calls.find((c) => c.path.startsWith('/rates/forecast'))!.path).toBe('/rates/forecast?origin=3&destination=18&kind=spot');
    expect(within(result).getByTestId('forecast-lane').textContent).toBe('Riyadh → Jeddah');
    expect(within(result).getByTestId('forecast-measured').textContent).toBe(
      'Our forecasts on this lane were off by 6 % on average over the last 12 weeks; 80 % of actual rates fell inside the band (repeating last week: off by 8.5 %).',
    );
    expect(within(result).getByTestId('forecast-weekly').querySelectorAll('tbody tr')).toHaveLength(12);
    await userEvent.click(within(result).getByText('Table'));
    const table = await screen.findByTestId('forecast-table');
    // 30 days of history + 8 forecast days, newest first
    expect(table.querySelectorAll('tbody tr')).toHaveLength(38);
    expect(table.querySelector('tbody tr')!.textContent).toContain('2,307 – 2,607');
  });

  it('speaks Arabic (RTL lane), and says when a lane has not enough data', async () => {
    await i18n.changeLanguage('ar');
    api(forecast({ model: 'not_enough_data', daily: [], weekly: [], measuredError: null }));
    renderWithApp(<RateForecastPage />, { path: '/rate-forecast?origin=3&destination=18', dir: 'rtl' });
    expect((await screen.findByTestId('forecast-loading-text')).textContent).toBe('جارٍ جمع البيانات…');
    expect(await screen.findByTestId('forecast-not-enough', {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByTestId('forecast-lane').textContent).toBe('الرياض ← جدة');
  });
});
