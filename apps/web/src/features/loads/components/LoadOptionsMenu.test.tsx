import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import type { Load, LoadOption } from '@masar/shared';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { BookmarkButton, LoadOptionsMenu } from './LoadOptionsMenu';

beforeAll(async () => {
  await i18n.loadNamespaces('loads');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ID = '01a201b8-d4ce-74b2-b96a-76f14f4c9341';
function load(options: LoadOption[], over: Partial<Load> = {}): Load {
  const stop = (i: number, date: string) => ({
    id: `s${i}`,
    index: i,
    stopType: i === 0 ? 1 : 2,
    cityId: 3,
    cityNameEn: 'Riyadh',
    cityNameAr: 'الرياض',
    districtId: null,
    lat: 24.7,
    lng: 46.7,
    date,
    address: null,
    addressDetails: null,
  });
  return {
    id: ID,
    referenceId: 'LD-000777',
    status: 'posted',
    loadType: 'FTL',
    equipmentType: 'reefer_truck',
    priceSar: '1000.00',
    currency: 'SAR',
    distanceKm: 100,
    ratePerKmSar: '10.00',
    totalWeightKg: 1000,
    comments: null,
    stops: [stop(0, '2030-01-01T05:00:00Z'), stop(1, '2030-01-02T05:00:00Z')],
    cargo: [],
    pickupAt: '2030-01-01T05:00:00Z',
    dropAt: '2030-01-02T05:00:00Z',
    postedAt: null,
    expiresAt: null,
    createdAt: '2029-12-01T05:00:00Z',
    shipperId: '01a201b8-62ec-775a-90a3-1e19e1b5fb95',
    shipperCompany: 'Najd Foods',
    carrierId: null,
    bookedPriceSar: null,
    offersCount: 0,
    pickupLatest: null,
    pickupHours: null,
    dropHours: null,
    paymentMethod: null,
    paidBy: null,
    paymentTermsDays: null,
    detentionFreeHours: null,
    detentionRateSar: null,
    deliveryType: null,
    deliveryTo: null,
    tradable: false,
    shipmentType: 1,
    vendorIds: [],
    bookmarked: false,
    options,
    ...over,
  };
}

function Where() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname + l.search}</div>;
}
const app = (ui: React.ReactNode) =>
  renderWithApp(
    <Routes>
      <Route
        path="*"
        element={
          <>
            {ui}
            <Where />
          </>
        }
      />
    </Routes>,
    { path: '/shippers/my-loads' },
  );

describe('LoadOptionsMenu (More Options = load.options)', { timeout: 20_000 }, () => {
  it('shows exactly the server options, in order', async () => {
    app(<LoadOptionsMenu load={load(['edit', 'extend_dates', 'unpost', 'duplicate', 'cancel'])} />);
    await userEvent.click(screen.getByTestId('load-actions-LD-000777'));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((i) => i.getAttribute('data-testid'))).toEqual([
      'option-edit',
      'option-extend_dates',
      'option-unpost',
      'option-duplicate',
      'option-cancel',
    ]);
    expect(items.map((i) => i.textContent)).toEqual(['Edit', 'Extend dates', 'Unpost', 'Duplicate', 'Cancel shipment']);
  });

  it('a trip option opens the details page with ?action=, edit opens the form', async () => {
    app(<LoadOptionsMenu load={load(['assign', 'track'], { status: 'unassigned' })} />);
    await userEvent.click(screen.getByTestId('load-actions-LD-000777'));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual(['Assign truck', 'Track']);
    await userEvent.click(screen.getByTestId('option-assign'));
    expect(screen.getByTestId('where').textContent).toBe(`/shippers/loads/${ID}?action=assign`);
    cleanup();
    app(<LoadOptionsMenu load={load(['edit'])} />);
    await userEvent.click(screen.getByTestId('load-actions-LD-000777'));
    await userEvent.click(await screen.findByTestId('option-edit'));
    expect(screen.getByTestId('where').textContent).toBe(`/shippers/post-load?edit=${ID}`);
  });

  it('extend dates opens its dialog with the 30-day limit and both dates', async () => {
    app(<LoadOptionsMenu load={load(['extend_dates'])} />);
    await userEvent.click(screen.getByTestId('load-actions-LD-000777'));
    await userEvent.click(await screen.findByTestId('option-extend_dates'));
    expect(await screen.findByText('Each date can move later by at most 30 days.')).toBeTruthy();
    expect(screen.getByText('New pickup date')).toBeTruthy();
    expect(screen.getByText('New delivery date')).toBeTruthy();
  });
});

describe('BookmarkButton', () => {
  it('bookmarks with POST and un-bookmarks with DELETE', async () => {
    const calls = stubApi((method, path) => (path === `/loads/${ID}/bookmark` ? { body: { message: 'ok', data: null } } : undefined));
    app(<BookmarkButton load={load([])} />);
    await userEvent.click(screen.getByRole('button', { name: 'Bookmark' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain(`POST /loads/${ID}/bookmark`));
    cleanup();
    app(<BookmarkButton load={load([], { bookmarked: true })} />);
    await userEvent.click(screen.getByRole('button', { name: 'Remove bookmark' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain(`DELETE /loads/${ID}/bookmark`));
  });
});
