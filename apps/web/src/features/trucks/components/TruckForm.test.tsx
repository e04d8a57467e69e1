import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { createTruckBody } from '@masar/shared';
import i18n, { loadNamespaces } from '../../../i18n';
import { emptyTruckForm, formToBody, TruckForm, type TruckFormValues } from './TruckForm';

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

/** Providers with the reference lists cached, so nothing goes to the network. */
function wrap(ui: ReactNode, dir: 'ltr' | 'rtl' = 'ltr') {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  qc.setQueryData(
    ['ref', 'equipmentTypes'],
    [{ code: 'flatbed_trailer', nameEn: 'Flatbed trailer', nameAr: 'تريلا سطحة', class: 'heavy', maxWeightKg: 25000 }],
  );
  qc.setQueryData(['ref', 'regions'], [{ id: 1, code: 'RD', nameEn: 'Riyadh', nameAr: 'الرياض', lat: 24.7, lng: 46.7 }]);
  qc.setQueryData(['ref', 'cities', '3'], [{ id: 3, nameEn: 'Riyadh', nameAr: 'الرياض', regionId: 1, lat: 24.7, lng: 46.7 }]);
  return render(
    <DirectionProvider initialDirection={dir}>
      <MantineProvider>
        <QueryClientProvider client={qc}>
          <MemoryRouter>{ui}</MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>,
  );
}

const day = (n: number) => new Date(Date.now() + n * 86_400_000 + 3 * 3_600_000).toISOString().slice(0, 10);
const filled = (over: Partial<TruckFormValues> = {}): TruckFormValues => ({
  ...emptyTruckForm(),
  equipmentType: 'flatbed_trailer',
  from: day(2),
  to: day(4),
  originCityId: 3,
  minRateSar: '2500',
  capacityKg: 24000,
  ...over,
});

describe('TruckForm', { timeout: 20_000 }, () => {
  it('sends a valid body: the days as a Riyadh window, anywhere, the rate as a decimal string', async () => {
    await loadNamespaces(['trucks']);
    const onSubmit = vi.fn();
    wrap(<TruckForm initial={filled()} onSubmit={onSubmit} />);
    await userEvent.click(screen.getByTestId('truck-submit'));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const body = onSubmit.mock.calls[0][0];
    expect(body).toMatchObject({
      loadType: 'FTL',
      equipmentType: 'flatbed_trailer',
      originCityId: 3,
      anywhere: true,
      minRateSar: '2500',
      capacityKg: 24000,
      post: true,
    });
    expect(body.availableFrom).toBe(`${day(2)}T00:00:00+03:00`);
    expect(body.availableTo).toBe(`${day(4)}T23:59:59+03:00`);
    expect(createTruckBody.safeParse(body).success).toBe(true);
  });

  it('saves unposted with post=false', async () => {
    await loadNamespaces(['trucks']);
    const onSubmit = vi.fn();
    wrap(<TruckForm initial={filled()} onSubmit={onSubmit} />);
    await userEvent.click(screen.getByTestId('truck-save-unposted'));
    expect(onSubmit.mock.calls[0][0].post).toBe(false);
  });

  it('refuses a post without destinations (anywhere off) with the shared message, and sends nothing', async () => {
    await loadNamespaces(['trucks']);
    const onSubmit = vi.fn();
    wrap(<TruckForm initial={filled({ anywhere: false })} onSubmit={onSubmit} />);
    await userEvent.click(screen.getByTestId('truck-submit'));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(await screen.findByText(/Choose anywhere, or 1 to 10 destination cities or regions/)).toBeTruthy();
  });

  it('asks LTL posts for pallets and deck length, and keeps them out of FTL bodies', async () => {
    await loadNamespaces(['trucks']);
    wrap(<TruckForm initial={filled({ loadType: 'LTL' })} onSubmit={vi.fn()} />);
    expect(screen.getByLabelText('Free pallets')).toBeTruthy();
    expect(formToBody(filled({ loadType: 'FTL', pallets: 6 }), true)).not.toHaveProperty('pallets');
    expect(formToBody(filled({ loadType: 'LTL', pallets: 6 }), true)).toMatchObject({ pallets: 6 });
  });

  it('speaks Arabic, right to left', async () => {
    await i18n.changeLanguage('ar');
    await loadNamespaces(['trucks'], 'ar');
    wrap(<TruckForm initial={filled()} onSubmit={vi.fn()} />, 'rtl');
    expect(screen.getByTestId('truck-submit').textContent).toContain('انشر الشاحنة');
    expect(screen.getByText('أي وجهة')).toBeTruthy();
  });
});
