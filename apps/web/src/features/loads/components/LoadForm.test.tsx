import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import i18n from '../../../i18n';
import { isoToPicker } from '../../../components/format';
import { LoadCard } from '../../../components/LoadCard';
import { loadFixture, stopFixture } from '../../../test/fixtures';
import { emptyCargo, emptyLoadForm, type LoadFormValues } from '../utils/loadForm';
import { LoadForm } from './LoadForm';

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

/** Providers with the reference lists already cached, so nothing goes to the network. */
function wrap(ui: ReactNode, dir: 'ltr' | 'rtl' = 'ltr') {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  qc.setQueryData(
    ['ref', 'equipmentTypes'],
    [
      { code: 'reefer_truck', nameEn: 'Refrigerated truck', nameAr: 'شاحنة مبردة', class: 'rigid', maxWeightKg: 8000 },
      { code: 'flatbed_trailer', nameEn: 'Flatbed trailer', nameAr: 'مقطورة مسطحة', class: 'trailer', maxWeightKg: 30000 },
    ],
  );
  qc.setQueryData(['ref', 'goodTypes'], [{ code: 'dates', nameEn: 'Dates', nameAr: 'تمور', temperatureControlled: false }]);
  qc.setQueryData(['ref', 'regions'], [{ id: 1, code: 'RD', nameEn: 'Riyadh', nameAr: 'الرياض' }]);
  qc.setQueryData(['ref', 'cities', '3'], [{ id: 3, nameEn: 'Riyadh', nameAr: 'الرياض', regionId: 1, lat: 24.7, lng: 46.7 }]);
  qc.setQueryData(['ref', 'cities', '18'], [{ id: 18, nameEn: 'Jeddah', nameAr: 'جدة', regionId: 2, lat: 21.5, lng: 39.2 }]);
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

const inDays = (d: number) => isoToPicker(new Date(Date.now() + d * 86_400_000).toISOString());
function validForm(): LoadFormValues {
  const v = emptyLoadForm();
  v.equipmentType = 'reefer_truck';
  v.stops[0] = { ...v.stops[0], cityId: 3, date: inDays(2) };
  v.stops[1] = { ...v.stops[1], cityId: 18, date: inDays(3) };
  v.cargo[0] = { ...v.cargo[0], goodsType: 'dates', lengthCm: 120, widthCm: 100, heightCm: 150, quantity: 10, weightPerItemKg: 500 };
  v.priceSar = 4200;
  return v;
}

describe('LoadForm', { timeout: 20_000 }, () => {
  it('checks an empty form with the shared schema and shows the errors inline, without submitting', async () => {
    const onSubmit = vi.fn();
    wrap(<LoadForm initialValues={emptyLoadForm()} editing={false} submitting={false} onSubmit={onSubmit} />);
    await userEvent.click(screen.getByTestId('post-load-submit'));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('Choose an equipment type.')).toBeTruthy();
    expect(screen.getAllByText('Enter a valid city.')).toHaveLength(2);
    expect(screen.getByText('Price must be above 0 SAR.')).toBeTruthy();
    expect(screen.getByTestId('form-errors')).toBeTruthy();
  });

  it('posts a valid load now, or saves it unposted', async () => {
    const onSubmit = vi.fn();
    wrap(<LoadForm initialValues={validForm()} editing={false} submitting={false} onSubmit={onSubmit} />);
    await userEvent.click(screen.getByTestId('post-load-submit'));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      loadType: 'FTL',
      equipmentType: 'reefer_truck',
      priceSar: '4200',
      post: true,
      stops: [
        { stopType: 1, cityId: 3 },
        { stopType: 2, cityId: 18 },
      ],
    });
    await userEvent.click(screen.getByTestId('post-load-save-unposted'));
    expect(onSubmit.mock.calls[1][0]).toMatchObject({ post: false });
  });

  it('adds stops and cargo lines up to the limit of 10 lines', async () => {
    const v = emptyLoadForm();
    v.cargo = Array.from({ length: 9 }, () => emptyCargo());
    wrap(<LoadForm initialValues={v} editing={false} submitting={false} onSubmit={vi.fn()} />);
    await userEvent.click(screen.getByTestId('add-pickup'));
    expect(screen.getByTestId('stop-2')).toBeTruthy();
    // A new pickup goes before the first drop, so the load still ends with a drop.
    expect(screen.getByTestId('stop-2').textContent).toContain('D');
    expect(screen.getByTestId<HTMLButtonElement>('add-cargo').disabled).toBe(false);
    await userEvent.click(screen.getByTestId('add-cargo'));
    expect(screen.getByTestId('cargo-9')).toBeTruthy();
    expect(screen.getByTestId<HTMLButtonElement>('add-cargo').disabled).toBe(true);
  });

  it('sends the pickup window, hours, payment, detention, delivery, tradable and the structured address', async () => {
    const onSubmit = vi.fn();
    const v = validForm();
    v.pickupHoursFrom = '08:00';
    v.pickupHoursTo = '17:00';
    v.detentionFreeHours = 4;
    v.stops[0].details = {
      ...v.stops[0].details,
      buildingNumber: '2345',
      streetName: 'King Fahd Rd',
      district: 'Al Olaya',
      region: 'Riyadh',
      zipCode: '12211',
    };
    wrap(<LoadForm initialValues={v} editing={false} submitting={false} onSubmit={onSubmit} />);
    // the typed fields go through the inputs
    await userEvent.type(screen.getByTestId('payment-terms'), '30');
    await userEvent.type(screen.getByTestId('detention-rate'), '75');
    await userEvent.type(screen.getByTestId('delivery-to'), 'Gate 5');
    await userEvent.click(screen.getByTestId('tradable'));
    await userEvent.click(screen.getByTestId('stop-0-address-toggle'));
    expect(screen.getByTestId<HTMLInputElement>('stop-0-zipCode').value).toBe('12211');
    await userEvent.type(screen.getByTestId('stop-0-businessName'), 'Najd');
    await userEvent.click(screen.getByTestId('post-load-submit'));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      pickupHours: { from: '08:00', to: '17:00' },
      paymentTermsDays: 30,
      detentionFreeHours: 4,
      detentionRateSar: '75',
      deliveryTo: 'Gate 5',
      tradable: true,
      shipmentType: 1,
      stops: [
        {
          cityId: 3,
          addressDetails: {
            buildingNumber: '2345',
            streetName: 'King Fahd Rd',
            district: 'Al Olaya',
            region: 'Riyadh',
            zipCode: '12211',
            businessName: 'Najd',
          },
        },
        { cityId: 18 },
      ],
    });
    expect(onSubmit.mock.calls[0][0].stops[1].addressDetails).toBeUndefined();
  });

  it('refuses an incomplete address, hours out of order and a vendor shipment without vendors', async () => {
    const onSubmit = vi.fn();
    const v = validForm();
    v.stops[0].details = { ...v.stops[0].details, buildingNumber: '12', streetName: '0' };
    v.pickupHoursFrom = '18:00';
    v.pickupHoursTo = '08:00';
    v.shipmentType = 2;
    wrap(<LoadForm initialValues={v} editing={false} submitting={false} onSubmit={onSubmit} />);
    await userEvent.click(screen.getByTestId('post-load-submit'));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('Building number is 4 digits.')).toBeTruthy();
    expect(screen.getAllByText('Fill out this address field (not 0 or a dot).').length).toBeGreaterThan(0);
    expect(screen.getByText('The closing time must be after the opening time.')).toBeTruthy();
    expect(screen.getByText('Choose at least one vendor.')).toBeTruthy();
  });

  it('asks before saving an edit that changes the lane or equipment (offers and booking activity are deleted)', async () => {
    const onSubmit = vi.fn();
    wrap(<LoadForm initialValues={validForm()} editing submitting={false} onSubmit={onSubmit} />);
    // no change of lane or equipment: saved at once, no question
    await userEvent.click(screen.getByTestId('post-load-submit'));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('lane-change-warning')).toBeNull();
    // another equipment: the confirmation says what is deleted; going back saves nothing
    await userEvent.clear(screen.getByTestId('equipment-select'));
    await userEvent.type(screen.getByTestId('equipment-select'), 'Flat');
    await userEvent.click(await screen.findByRole('option', { name: 'Flatbed trailer', hidden: true }));
    await userEvent.click(screen.getByTestId('post-load-submit'));
    expect((await screen.findByTestId('lane-change-warning')).textContent).toContain('deletes the tracking and all offers and booking activity');
    expect(onSubmit).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByTestId('lane-change-cancel'));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByTestId('post-load-submit'));
    await userEvent.click(await screen.findByTestId('lane-change-confirm'));
    expect(onSubmit).toHaveBeenCalledTimes(2);
    expect(onSubmit.mock.calls[1][0]).toMatchObject({ equipmentType: 'flatbed_trailer' });
  });

  it('in Arabic, the errors are Arabic', async () => {
    await i18n.changeLanguage('ar');
    wrap(<LoadForm initialValues={emptyLoadForm()} editing={false} submitting={false} onSubmit={vi.fn()} />, 'rtl');
    await userEvent.click(screen.getByTestId('post-load-submit'));
    expect(screen.getByText('اختر نوع المعدة.')).toBeTruthy();
  });
});

describe('LoadCard', () => {
  const load = loadFixture({
    referenceId: 'LD-000123',
    priceSar: '6750.00',
    distanceKm: 1064.3,
    ratePerKmSar: '6.34',
    totalWeightKg: 7500,
    stops: [
      stopFixture(0, 3, 'Riyadh', 'الرياض', '2026-12-01T05:00:00Z', { id: 'a' }),
      stopFixture(1, 18, 'Jeddah', 'جدة', '2026-12-02T05:00:00Z', { id: 'b', lat: 21.5, lng: 39.2 }),
    ],
    pickupAt: '2026-12-01T05:00:00Z',
    dropAt: '2026-12-02T05:00:00Z',
    createdAt: '2026-11-22T05:00:00Z',
    deadheadKm: 85,
  });

  it('shows lane, date, equipment, weight, distance, price, rate per km and deadhead', () => {
    wrap(<LoadCard load={load} href="/carriers/loads/x" />);
    const card = screen.getByTestId('load-row-LD-000123');
    const text = card.textContent ?? '';
    for (const s of ['Riyadh', 'Jeddah', '1\u00a0Dec,\u00a008:00', 'Refrigerated truck', '7,500 kg', '1,064 km', '85 km', '6,750', '6.34'])
      expect(text).toContain(s);
    expect(within(card).getByRole('link')).toBeTruthy();
  });

  it('in Arabic: Arabic city names, Arabic digits and the compact Hijri date', async () => {
    await i18n.changeLanguage('ar');
    wrap(<LoadCard load={load} />, 'rtl');
    const text = screen.getByTestId('load-row-LD-000123').textContent ?? '';
    for (const s of ['الرياض', 'جدة', 'شاحنة مبردة', '٦٬٧٥٠', '(٢١\u00a0جمادى\u00a0الآخرة)']) expect(text).toContain(s);
  });
});
