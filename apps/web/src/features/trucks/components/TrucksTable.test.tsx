import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { AccountRecord, Truck } from '@masar/shared';
import i18n, { loadNamespaces } from '../../../i18n';
import { truckFixture } from '../../../test/fixtures';
import { renderWithApp, stubApi } from '../../../test/render';
import { TrucksTable } from './TrucksTable';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const record = (completed: number): AccountRecord => ({
  accountId: '01a21836-0000-7000-8000-000000000009',
  newOnMasar: completed < 5,
  asCarrier:
    completed < 5
      ? null
      : {
          completed,
          onTimePickupPct: 90,
          pickupsMeasured: completed,
          onTimeDeliveryPct: 95,
          deliveriesMeasured: completed,
          cancellationsAfterBooking: 0,
          vehicles: 3,
          waslVerifiedVehicles: 3,
          waslVerifiedPct: 100,
        },
  asShipper: null,
});
const truck = (n: number, over: Partial<Truck> = {}): Truck =>
  truckFixture({ id: `01a21836-0000-7000-8000-00000000000${n}`, referenceId: `TRK-00000${n}`, ...over });

function renderTable(props: Partial<Parameters<typeof TrucksTable>[0]> = {}, dir: 'ltr' | 'rtl' = 'ltr') {
  stubApi(() => undefined);
  const onSort = vi.fn();
  const onOpen = vi.fn();
  renderWithApp(
    <TrucksTable
      trucks={[
        truck(1, { deadheadKm: 12.5, record: record(12) }),
        truck(2, { anywhere: true, rateBasis: 'km', minRateSar: '4.50', verified: false, record: record(0) }),
      ]}
      sort="deadhead"
      canSortDeadhead
      onSort={onSort}
      onOpen={onOpen}
      {...props}
    />,
    { dir, path: '/shippers/search-trucks' },
  );
  return { onSort, onOpen };
}

/** Issue 23: search trucks in the board's results table. */
describe('TrucksTable', () => {
  it('lines trucks up in columns with the carrier’s record, and opens one from its reference', async () => {
    await loadNamespaces(['trucks']);
    const { onOpen } = renderTable();
    const table = screen.getByTestId('trucks-table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Ref.', 'Available', 'Lane', 'Equipment', 'Type', 'Capacity', 'Minimum rate', 'Carrier']);
    const first = screen.getByTestId('truck-row-TRK-000001');
    expect(first.textContent).toContain('Riyadh');
    expect(first.textContent).toContain('Tabuk');
    expect(first.textContent).toContain('12.5 km away');
    expect(first.textContent).toContain('25,000 kg');
    expect(within(first).getByTestId('truck-row-record').textContent).toBe('12 completed · Delivery on time 95%');
    const second = screen.getByTestId('truck-row-TRK-000002');
    expect(second.textContent).toContain('Anywhere');
    expect(second.textContent).toMatch(/4\.50 per km/);
    expect(within(second).getByTestId('truck-row-record').textContent).toBe('New on Masar');
    fireEvent.click(within(second).getByRole('button', { name: 'View truck TRK-000002' }));
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ referenceId: 'TRK-000002' }));
  });

  it('asks the server for the sort of a head; deadhead sorts only from a pickup city', async () => {
    await loadNamespaces(['trucks']);
    const { onSort } = renderTable();
    expect(screen.getByTestId('truck-col-lane').getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(screen.getByTestId('truck-sort-rate'));
    expect(onSort).toHaveBeenLastCalledWith('rate');
    fireEvent.click(screen.getByTestId('truck-sort-available'));
    expect(onSort).toHaveBeenLastCalledWith('date');
    cleanup();
    renderTable({ sort: 'date', canSortDeadhead: false });
    expect(screen.queryByTestId('truck-sort-lane')).toBeNull();
    expect(screen.getByTestId('truck-col-available').getAttribute('aria-sort')).toBe('ascending');
  });

  it('writes Arabic-Indic digits in Arabic', async () => {
    await loadNamespaces(['trucks']);
    await i18n.changeLanguage('ar');
    renderTable({}, 'rtl');
    const text = (screen.getByTestId('trucks-table').textContent ?? '').replace(/TRK-\d+/g, '');
    expect(text).toMatch(/[\u0660-\u0669]/);
    expect(text).not.toMatch(/[0-9]/);
  });
});
