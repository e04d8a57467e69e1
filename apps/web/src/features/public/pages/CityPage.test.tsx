import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { Load } from '@masar/shared';
import i18n from '../../../i18n';
import { loadFixture } from '../../../test/fixtures';
import { renderWithApp, stubApi } from '../../../test/render';
import CityPage, { outboundLanes } from './CityPage';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const stop = (stopType: number, cityId: number, en: string, ar: string, i: number) => ({
  id: `0193a6c0-0000-7000-8000-00000000000${i}`,
  index: i,
  stopType,
  cityId,
  cityNameEn: en,
  cityNameAr: ar,
  districtId: null,
  lat: 0,
  lng: 0,
  date: '2026-12-01T05:00:00Z',
  address: null,
  addressDetails: null,
});
const load = (n: number, to: [number, string, string]): Load =>
  loadFixture({
    id: `01a201b8-d4ce-74b2-b96a-76f14f4c93${String(n).padStart(2, '0')}`,
    referenceId: `LD-0001${String(n).padStart(2, '0')}`,
    equipmentType: 'flatbed',
    priceSar: '4200.00',
    distanceKm: 950,
    ratePerKmSar: '4.42',
    totalWeightKg: 18000,
    stops: [stop(1, 3, 'Riyadh', 'الرياض', 0), stop(2, to[0], to[1], to[2], 1)],
    pickupAt: '2026-12-01T05:00:00Z',
    dropAt: '2026-12-02T05:00:00Z',
    postedAt: '2026-11-23T05:00:00Z',
    createdAt: '2026-11-23T05:00:00Z',
    deadheadKm: 12,
  });
const JEDDAH: [number, string, string] = [18, 'Jeddah', 'جدة'];
const DAMMAM: [number, string, string] = [13, 'Dammam', 'الدمام'];
const items = [load(1, JEDDAH), load(2, DAMMAM), load(3, JEDDAH)];

const page = (
  <Routes>
    <Route path="/city/:slug" element={<CityPage />} />
  </Routes>
);

describe('City page', () => {
  it('shows Riyadh live loads from the board search (pickup city + radius, at most 10) and their outbound lanes, in Arabic', async () => {
    await i18n.changeLanguage('ar');
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path.startsWith('/loads?')) return { body: { message: 'OK', data: { items, total: 57, totalCapped: false } } };
      if (method === 'GET' && path.startsWith('/equipmentTypes')) return { body: { message: 'OK', data: { items: [] } } };
      return undefined;
    });
    renderWithApp(page, { dir: 'rtl', path: '/city/riyadh' });
    expect(await screen.findByRole('heading', { level: 1, name: 'حمولات الشاحنات في الرياض' })).toBeTruthy();
    expect(document.title).toBe('حمولات الشاحنات في الرياض · مسار');
    expect(await screen.findByTestId('load-row-LD-000103')).toBeTruthy();
    expect(within(screen.getByTestId('city-loads')).getAllByRole('link')).toHaveLength(3);
    const search = calls.find((c) => c.path.startsWith('/loads?'))!;
    expect(Object.fromEntries(new URLSearchParams(search.path.split('?')[1]))).toMatchObject({ pickupCityId: '3', radius: '50', limit: '10' });
    const lanes = screen.getByTestId('city-lanes').textContent ?? '';
    expect(lanes).toContain('جدة');
    expect(lanes).toContain('حمولتان');
    expect(lanes).toContain('الدمام');
    expect(lanes.indexOf('جدة')).toBeLessThan(lanes.indexOf('الدمام'));
    // a destination with its own city page links to the lane page
    expect(within(screen.getByTestId('city-lanes')).getByRole('link', { name: 'جدة' }).getAttribute('href')).toBe('/city/riyadh-to-jeddah');
    // 57 on the board, 3 shown: guests sign in for the rest
    expect(screen.getByTestId('city-sign-in').textContent).toBe('سجّل الدخول لرؤية كل الحمولات');
  });

  it('an unknown city is the not-found page and searches nothing', async () => {
    const calls = stubApi(() => undefined);
    renderWithApp(page, { path: '/city/atlantis' });
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    expect(screen.queryByTestId('city-loads')).toBeNull();
    expect(calls.filter((c) => c.path.startsWith('/loads'))).toHaveLength(0);
  });

  it('counts lanes by destination, most loads first, skipping loads that stay in the city', () => {
    const local = load(4, [3, 'Riyadh', 'الرياض']);
    expect(outboundLanes([...items, local], 3)).toEqual([
      { toEn: 'Jeddah', toAr: 'جدة', toCityId: 18, loads: 2 },
      { toEn: 'Dammam', toAr: 'الدمام', toCityId: 13, loads: 1 },
    ]);
  });
});

/** Issue 23: city-to-city landing pages. */
describe('Lane page', () => {
  it('shows the lane Riyadh → Jeddah: its open loads (pickup city + radius + drop city), medians, the way back', async () => {
    const lane = [load(1, JEDDAH), load(3, JEDDAH), { ...load(5, JEDDAH), distanceKm: 1010, priceSar: '5000.00', ratePerKmSar: '4.95' }];
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path.startsWith('/loads?')) return { body: { message: 'OK', data: { items: lane, total: 3, totalCapped: false } } };
      if (method === 'GET' && path.startsWith('/cities')) return { body: { message: 'OK', data: { items: [] } } };
      if (method === 'GET' && path.startsWith('/equipmentTypes')) return { body: { message: 'OK', data: { items: [] } } };
      return undefined;
    });
    renderWithApp(page, { path: '/city/riyadh-to-jeddah' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Truck loads from Riyadh to Jeddah' })).toBeTruthy();
    expect(document.title).toBe('Truck loads from Riyadh to Jeddah · Masar');
    await screen.findByTestId('load-row-LD-000105');
    const search = calls.find((c) => c.path.startsWith('/loads?'))!;
    expect(Object.fromEntries(new URLSearchParams(search.path.split('?')[1]))).toMatchObject({
      pickupCityId: '3',
      radius: '50',
      dropCityId: '18',
      limit: '10',
    });
    expect(screen.getByTestId('lane-open').textContent).toContain('3');
    // medians of 950, 950, 1010 km and of 4,200, 4,200, 5,000 SAR
    expect(screen.getByTestId('lane-distance').textContent).toContain('950 km');
    expect(screen.getByTestId('lane-price').textContent).toContain('4,200');
    expect(screen.getByTestId('lane-back').getAttribute('href')).toBe('/city/jeddah-to-riyadh');
  });

  it('a lane from a city to itself, or to an unknown one, is not found', async () => {
    const calls = stubApi(() => undefined);
    renderWithApp(page, { path: '/city/riyadh-to-riyadh' });
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    expect(screen.queryByTestId('lane-loads')).toBeNull();
    cleanup();
    renderWithApp(page, { path: '/city/riyadh-to-atlantis' });
    await screen.findByRole('heading', { level: 1 });
    expect(calls.filter((c) => c.path.startsWith('/loads'))).toHaveLength(0);
  });
});
