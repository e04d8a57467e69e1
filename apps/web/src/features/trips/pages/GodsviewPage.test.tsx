import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n, { loadNamespaces } from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import GodsviewPage from './GodsviewPage';

// the map is Leaflet (no layout in jsdom); the list beside it is what this test reads
vi.mock('../components/TrackMap', () => ({ default: () => <div data-testid="track-map" />, STATUS_COLOR: { assigned: 'blue', vehicle: 'gray' } }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LOAD = '01a201c4-0000-7000-8000-000000000009';
const VEHICLE = '01a201c4-0000-7000-8000-000000000010';
const overview = {
  shipments: [
    {
      loadId: LOAD,
      referenceId: 'MSR-000123',
      status: 'assigned',
      pickup: { lat: 24.7, lng: 46.7 },
      drop: { lat: 21.5, lng: 39.2 },
      lane: { fromEn: 'Riyadh', fromAr: 'الرياض', toEn: 'Jeddah', toAr: 'جدة' },
      vehicleId: VEHICLE,
      plate: '2940 د ق ح',
      driverName: 'Fahad Alotaibi',
      latest: { lat: 24.71, lng: 46.72, at: '2026-11-26T10:00:00Z', speed: 80, heading: 270 },
      lastStep: 'to_pickup',
      heading: 'pickup',
      eta: '2026-11-27T06:00:00Z',
    },
  ],
  vehicles: [
    { vehicleId: VEHICLE, plate: '2940 د ق ح', latest: null, loadId: LOAD, referenceId: 'MSR-000123', driverName: 'Fahad Alotaibi' },
    { vehicleId: '01a201c4-0000-7000-8000-000000000011', plate: '1111 ا ب ج', latest: null, loadId: null, referenceId: null, driverName: null },
  ],
};

describe('/godsview (issue 23)', () => {
  it('shows each shipment with lane, driver, plate and ETA in Arabic, and the vehicles in their own tab', { timeout: 30_000 }, async () => {
    await i18n.changeLanguage('ar');
    await loadNamespaces(['trips'], 'ar');
    stubApi((method, path) => (method === 'GET' && path === '/vehicles/track/overview' ? { body: { message: 'OK', data: overview } } : undefined));
    renderWithApp(<GodsviewPage />, { dir: 'rtl', path: '/carriers/godsview' });
    const card = await screen.findByTestId('godsview-shipment');
    expect(screen.getByTestId('godsview-lane').textContent).toContain('الرياض');
    expect(screen.getByTestId('godsview-lane').textContent).toContain('جدة');
    expect(screen.getByTestId('godsview-assignment').textContent).toContain('Fahad Alotaibi');
    expect(screen.getByTestId('godsview-assignment').textContent).toContain('2940 د ق ح');
    expect(screen.getByTestId('godsview-eta').textContent).toContain('متجهة إلى التحميل');
    expect(card.textContent).toContain('MSR-000123');
    // the vehicles are a tab, not a list under every shipment card
    expect(screen.queryByTestId('godsview-vehicle')).toBeNull();
    expect(screen.getByTestId('godsview-tab-vehicles').textContent).toContain('٢');
    await userEvent.setup({ delay: null }).click(screen.getByTestId('godsview-tab-vehicles'));
    const vehicles = await screen.findAllByTestId('godsview-vehicle');
    expect(vehicles).toHaveLength(2);
    expect(vehicles[0].textContent).toContain('MSR-000123');
    expect(vehicles[1].textContent).toContain('ليست في شحنة');
  });
});
