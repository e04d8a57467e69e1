import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { Dashboard } from '@masar/shared';
import i18n, { loadNamespaces } from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import DashboardPage from './DashboardPage';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const stat = (value: number, previous: number, changePct: number | null) => ({ value, previous, changePct });
const lane = {
  originCityId: 3,
  originCity: 'Riyadh',
  destinationCityId: 18,
  destinationCity: 'Jeddah',
  loads: 4,
  valueSar: 11200,
  avgSar: 2800,
  perKmSar: 2.93,
};
const zero = stat(0, 0, null);

function dashboard(period: 'week' | 'month' | 'year', over: Partial<Dashboard['shipper']['stats']> = {}): Dashboard {
  return {
    range: { period, from: '2026-11-01', to: '2026-11-26', previousFrom: '2026-10-01', previousTo: '2026-10-26' },
    shipper: {
      stats: {
        loads_posted: stat(12, 8, 50),
        loads_assigned: stat(4, 5, -20),
        loads_open: stat(3, 3, 0),
        loads_expired: zero,
        avg_offers_per_load: stat(2.5, 2, 25),
        final_value: stat(11200, 0, null),
        ...over,
      },
      spendByLane: [lane],
      carrierOnTime: { pickupsMeasured: 4, onTimePickupPct: 75, deliveriesMeasured: 0, onTimeDeliveryPct: null },
    },
    carrier: {
      offers: { offersMade: zero, won: zero, lost: zero, winRatePct: null, revenueSar: zero },
      popularRoutes: [],
      topLanes: [],
      revenue: { granularity: 'day', points: [], rateTrend: [] },
    },
  };
}

/** Issue 20 "Dashboards": the period filter, the statistic cards with their change, the table view of a chart, RTL and digits. */
describe('DashboardPage', () => {
  it('shows the six statistics with their change, asks for another period, and shows spend by lane as a table', async () => {
    await loadNamespaces(['dashboard']);
    const calls = stubApi((m, path) =>
      m === 'GET' && path.startsWith('/dashboard')
        ? {
            body: {
              message: 'ok',
              data: dashboard(path.includes('year') ? 'year' : 'month', path.includes('year') ? { loads_posted: stat(140, 90, 55.6) } : {}),
            },
          }
        : undefined,
    );
    renderWithApp(<DashboardPage />, { path: '/shippers/dashboard' });
    const posted = await screen.findByTestId('stat-loads_posted');
    expect(within(posted).getByText('12')).toBeTruthy();
    expect(within(posted).getByText('Up 50% on the previous period')).toBeTruthy();
    expect(within(screen.getByTestId('stat-loads_assigned')).getByText('Down 20% on the previous period')).toBeTruthy();
    expect(within(screen.getByTestId('stat-final_value')).getByText('No figures for the previous period')).toBeTruthy();
    expect(screen.getByTestId('stat-final_value-value').textContent?.replace(/\s/g, ' ')).toBe('SAR 11,200');
    // a shipper sees no carrier section
    expect(screen.queryByText('Carrier insights')).toBeNull();
    // the on-time figures of my carriers
    expect(within(screen.getByTestId('carrier-on-time')).getByText('75%')).toBeTruthy();

    fireEvent.click(within(screen.getByTestId('spend-by-lane-view')).getByText('Table'));
    const table = screen.getByTestId('spend-by-lane-table');
    expect(within(table).getByText('Riyadh → Jeddah')).toBeTruthy();
    expect(within(table).getByText('SAR 2,800')).toBeTruthy();

    fireEvent.click(within(screen.getByTestId('dashboard-period')).getByText('This Year'));
    expect(await screen.findByText('140')).toBeTruthy();
    expect(calls.some((c) => c.path === '/dashboard?period=year')).toBe(true);
  });

  it('reads in Arabic: Arabic digits, both sides for a broker, and empty states for a new account', async () => {
    await i18n.changeLanguage('ar');
    await loadNamespaces(['dashboard'], 'ar');
    const empty = dashboard('month');
    empty.shipper.spendByLane = [];
    empty.carrier.revenue.points = [{ bucket: '2026-11-02', revenueSar: 0, loads: 0 }];
    stubApi((m, path) => (m === 'GET' && path.startsWith('/dashboard') ? { body: { message: 'ok', data: empty } } : undefined));
    renderWithApp(<DashboardPage />, { path: '/brokers/dashboard', dir: 'rtl' });
    const posted = await screen.findByTestId('stat-loads_posted-value');
    expect(posted.textContent).toBe('١٢');
    // a broker sees both sides; a side without figures says so
    expect(screen.getByText('رؤى الناقل')).toBeTruthy();
    expect(within(screen.getByTestId('spend-by-lane')).getByText('لا شيء في هذه الفترة بعد. تظهر الأرقام هنا مع تقدّم شحناتك.')).toBeTruthy();
    expect(within(screen.getByTestId('popular-routes')).getByText('لا شيء في هذه الفترة بعد. تظهر الأرقام هنا مع تقدّم شحناتك.')).toBeTruthy();
    // a day row without revenue is no revenue trend
    expect(within(screen.getByTestId('revenue-trend')).getByText('لا شيء في هذه الفترة بعد. تظهر الأرقام هنا مع تقدّم شحناتك.')).toBeTruthy();
  });
});
