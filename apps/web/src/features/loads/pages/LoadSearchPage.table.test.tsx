import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DirectionProvider, MantineProvider, Table } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import i18n from '../../../i18n';
import { localizedTheme } from '../../../app/theme';
import { loadFixture, stopFixture } from '../../../test/fixtures';
import { stubApi } from '../../../test/render';
import { LoadsTable, TD_CLASS } from '../components/LoadsTable';
import LoadSearchPage from './LoadSearchPage';
import { prefetchRouteData } from '../../../app/routes';

beforeAll(async () => {
  await i18n.loadNamespaces(['loads', 'shipments']);
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const NOW = Date.parse('2030-01-01T00:00:00Z');
const load = (n: number, over: Parameters<typeof loadFixture>[0] = {}, now = NOW) =>
  loadFixture({
    id: `01a201b8-d4ce-74b2-b96a-76f14f4c93${String(n).padStart(2, '0')}`,
    referenceId: `LD-0012${String(n).padStart(2, '0')}`,
    priceSar: '12500.50',
    distanceKm: 1234,
    ratePerKmSar: '10.13',
    totalWeightKg: 24500,
    postedAt: new Date(now - 5 * 60_000).toISOString(),
    paymentTermsDays: 30,
    stops: [stopFixture(0, 3, 'Riyadh', 'الرياض', '2030-01-01T05:00:00Z'), stopFixture(1, 4, 'Dammam', 'الدمام', '2030-01-02T05:00:00Z')],
    ...over,
  });

/** Where the page's URL is (its filters, sort, density and page size live there). */
function Where() {
  const loc = useLocation();
  return <output data-testid="where">{loc.pathname + loc.search}</output>;
}

function renderPage(path = '/carriers/load-search', { prefetch = false } = {}) {
  const calls = stubApi((_m, p) => {
    if (p.startsWith('/loads?'))
      return {
        body: { message: 'ok', data: { items: Array.from({ length: 3 }, (_, i) => load(i, {}, Date.now())), total: 3, totalCapped: false, nextCursor: null } },
      };
    if (p.startsWith('/equipmentTypes') || p.startsWith('/cities')) return { body: { message: 'ok', data: { items: [] } } };
    return undefined;
  });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // as main.tsx does before the first render (issue 23)
  if (prefetch) prefetchRouteData(new URL(path, 'http://x').pathname, new URL(path, 'http://x').search, qc, { isSignedIn: true, accountType: 2 });
  render(
    <DirectionProvider initialDirection="ltr">
      <MantineProvider theme={localizedTheme(i18n.t)}>
        <QueryClientProvider client={qc}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route
                path="*"
                element={
                  <>
                    <LoadSearchPage />
                    <Where />
                  </>
                }
              />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>,
  );
  const searches = () => calls.filter((c) => c.path.startsWith('/loads?')).map((c) => new URLSearchParams(c.path.slice('/loads?'.length)));
  return { searches };
}

const where = () => new URLSearchParams(screen.getByTestId('where').textContent.split('?')[1] ?? '');

describe('load search results table (issue 23)', { timeout: 30_000 }, () => {
  it('takes its first rows from the search main.tsx started before rendering: one request, not two', async () => {
    const { searches } = renderPage('/carriers/load-search?sort=price&size=50', { prefetch: true });
    expect(await screen.findByTestId('load-row-LD-001201', {}, { timeout: 15_000 })).toBeTruthy();
    expect(searches()).toHaveLength(1);
    expect(searches()[0].get('limit')).toBe('50');
  });

  it('shows aligned columns: reference link, age, pickup, lane, distance, equipment, type, weight, price, rate, shipper with badge and days-to-pay', async () => {
    renderPage();
    const table = await screen.findByTestId('loads-table', {}, { timeout: 15_000 });
    const heads = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(heads).toEqual(['Ref.', 'Posted', 'Pickup', 'Lane', 'Distance', 'Equipment', 'Type', 'Weight', 'Price', 'Rate/km', 'Shipper', 'Actions']);
    const row = await screen.findByTestId('load-row-LD-001201');
    const link = within(row).getAllByRole('link')[0];
    expect(link.getAttribute('href')).toBe('/carriers/loads/01a201b8-d4ce-74b2-b96a-76f14f4c9301');
    expect(link.getAttribute('aria-label')).toContain('LD-001201');
    const text = row.textContent ?? '';
    expect(text).toMatch(/min ago/);
    expect(text).toContain('Riyadh');
    expect(text).toContain('Dammam');
    expect(text).toContain('1,234 km');
    expect(text).toContain('24,500 kg');
    expect(text).toMatch(/12,500\.50/);
    expect(text).toMatch(/10\.13/);
    expect(text).toContain('Najd Foods');
    expect(text).toContain('Pays in 30 days');
    expect(within(row).getByTestId('shipper-verified').getAttribute('aria-label')).toBe('Verified shipper');
  });

  it('sorts by a column head through the server sort, back on page one', async () => {
    const { searches } = renderPage('/carriers/load-search?page=2');
    await screen.findByTestId('loads-table', {}, { timeout: 15_000 });
    // newest first by default: the age head is the sorted one
    expect(screen.getByTestId('col-age').getAttribute('aria-sort')).toBe('descending');
    // deadhead needs a pickup city: the lane head is not a sort without one
    expect(screen.queryByTestId('sort-lane')).toBeNull();
    await act(async () => fireEvent.click(screen.getByTestId('sort-price')));
    await waitFor(() => expect(where().get('sort')).toBe('price'));
    expect(where().get('page')).toBeNull();
    await waitFor(() => expect(searches().at(-1)?.get('sort')).toBe('price'));
    expect(searches().at(-1)?.get('skip')).toBe('0');
    await waitFor(() => expect(screen.getByTestId('col-price').getAttribute('aria-sort')).toBe('descending'));
    expect(screen.getByTestId('col-age').getAttribute('aria-sort')).toBe('none');
    await act(async () => fireEvent.click(screen.getByTestId('sort-pickup')));
    await waitFor(() => expect(searches().at(-1)?.get('sort')).toBe('pickup'));
    await waitFor(() => expect(screen.getByTestId('col-pickup').getAttribute('aria-sort')).toBe('ascending'));
  });

  it('sorts by deadhead from the lane head when the search has a pickup city', async () => {
    const { searches } = renderPage('/carriers/load-search?pickupCityId=3&radius=100');
    await screen.findByTestId('loads-table', {}, { timeout: 15_000 });
    await act(async () => fireEvent.click(screen.getByTestId('sort-lane')));
    await waitFor(() => expect(searches().at(-1)?.get('sort')).toBe('deadhead'));
  });

  it('switches density (comfortable ↔ compact) and asks the server for 25, 50 or 100 loads a page', async () => {
    const { searches } = renderPage();
    await screen.findByTestId('loads-table', {}, { timeout: 15_000 });
    expect(screen.getByTestId('loads-table').getAttribute('data-density')).toBe('comfortable');
    expect(searches().at(-1)?.get('limit')).toBe('25');
    await act(async () => fireEvent.click(within(screen.getByTestId('density-toggle')).getByText('Compact')));
    await waitFor(() => expect(screen.getByTestId('loads-table').getAttribute('data-density')).toBe('compact'));
    expect(where().get('density')).toBe('compact');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('page-size'));
    await user.click(await screen.findByRole('option', { name: '50', hidden: true }));
    await waitFor(() => expect(searches().at(-1)?.get('limit')).toBe('50'));
    expect(where().get('size')).toBe('50');
  });
});

describe('LoadsTable (issue 23)', () => {
  const renderTable = (props: Partial<Parameters<typeof LoadsTable>[0]> = {}) =>
    render(
      <MantineProvider>
        <QueryClientProvider client={new QueryClient()}>
          <MemoryRouter>
            <LoadsTable
              loads={[load(1), load(2, { shipperVerified: false, paymentTermsDays: null, postedAt: new Date(NOW - 3 * 86_400_000).toISOString() })]}
              hrefOf={(l) => `/x/${l.id}`}
              sort="newest"
              canSortDeadhead={false}
              onSort={() => {}}
              density="comfortable"
              now={NOW}
              {...props}
            />
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>,
    );

  it('calls onSort with the server sort of the head; the sorted head again changes nothing', () => {
    const onSort = vi.fn();
    renderTable({ onSort });
    fireEvent.click(screen.getByTestId('sort-ratePerKm'));
    expect(onSort).toHaveBeenLastCalledWith('ratePerKm');
    onSort.mockClear();
    fireEvent.click(screen.getByTestId('sort-age'));
    expect(onSort).not.toHaveBeenCalled();
  });

  it("styles its plain cells as Mantine's Table.Td would, so that the columns keep Mantine's spacing", () => {
    render(
      <MantineProvider>
        <Table>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td data-testid="mantine-td" />
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </MantineProvider>,
    );
    expect(screen.getByTestId('mantine-td').className).toBe(TD_CLASS);
    cleanup();
    renderTable();
    const cells = screen.getByTestId('load-row-LD-001201').querySelectorAll('td');
    expect(cells.length).toBeGreaterThan(10);
    for (const td of cells) expect(td.className).toBe(TD_CLASS);
  });

  it('paints a screenful of rows first and the rest of the page right after (issue 23: first rows within 1.0 s)', async () => {
    const loads = Array.from({ length: 60 }, (_, i) => load(i));
    renderTable({ loads });
    const rows = () => document.querySelectorAll('[data-testid^=load-row-]').length;
    // jsdom's window is 768 px high: 14 comfortable rows of at least 56 px fill it
    expect(rows()).toBe(Math.ceil(window.innerHeight / 56));
    expect(screen.getByTestId('load-row-LD-001200')).toBeTruthy();
    await waitFor(() => expect(rows()).toBe(60));
    // in order, the first rows unchanged
    expect([...document.querySelectorAll('[data-testid^=load-row-]')].map((r) => r.getAttribute('data-testid'))).toEqual(
      loads.map((l) => `load-row-${l.referenceId}`),
    );
  });

  it("shows the verified shipper's tooltip on hover (mounted on the first hover, not with every row)", async () => {
    renderTable();
    const badge = within(screen.getByTestId('load-row-LD-001201')).getByTestId('shipper-verified');
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.mouseEnter(badge);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Verified shipper');
  });

  it('ages, an unverified shipper without terms, and the row hover', () => {
    const onHover = vi.fn();
    renderTable({ onHover });
    const row = screen.getByTestId('load-row-LD-001202');
    expect(row.textContent).toContain('3 d ago');
    expect(row.textContent).toContain('Terms not set');
    expect(within(row).queryByTestId('shipper-verified')).toBeNull();
    fireEvent.mouseEnter(row);
    expect(onHover).toHaveBeenLastCalledWith(load(2).id);
    fireEvent.mouseLeave(row);
    expect(onHover).toHaveBeenLastCalledWith(null);
  });

  it('shows what a shipper measurably pays in before its stated terms, in both languages', async () => {
    renderTable({ loads: [load(1, { shipperDaysToPay: 12.5 }), load(2, { shipperDaysToPay: 3 })] });
    expect(screen.getByTestId('load-row-LD-001201').textContent).toContain('Pays in 12.5 days on average');
    expect(screen.getByTestId('load-row-LD-001201').textContent).not.toContain('Pays in 30 days');
    cleanup();
    await i18n.changeLanguage('ar');
    renderTable({ loads: [load(1, { shipperDaysToPay: 12.5 }), load(2, { shipperDaysToPay: 3 })] });
    // a fraction takes the singular noun, three to ten the plural (Arabic number agreement)
    expect(screen.getByTestId('load-row-LD-001201').textContent).toContain('يدفع خلال ١٢٫٥ يوم في المتوسط');
    expect(screen.getByTestId('load-row-LD-001202').textContent).toContain('يدفع خلال ٣ أيام في المتوسط');
  });

  it('on phones renders cards, each with its link', () => {
    renderTable({ cards: true });
    expect(screen.queryByTestId('loads-table')).toBeNull();
    const card = within(screen.getByTestId('loads-cards')).getByTestId('load-row-LD-001201');
    expect(within(card).getAllByRole('link')[0].getAttribute('href')).toBe(`/x/${load(1).id}`);
  });

  it('writes Arabic-Indic digits in Arabic', async () => {
    await i18n.changeLanguage('ar');
    renderTable();
    const text = (screen.getByTestId('loads-table').textContent ?? '').replace(/LD-\d+/g, '');
    expect(text).toMatch(/[\u0660-\u0669]/);
    expect(text).not.toMatch(/[0-9]/);
  });
});
