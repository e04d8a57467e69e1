import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { MY_LOADS_TABS, type Load, type MyOfferState } from '@masar/shared';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { loadFixture } from '../../../test/fixtures';
import { SessionProvider } from '../../../lib/session';
import Page from './MyLoadsPage';

// the page reads who is looking (useViewer) from the app's session
const MyLoadsPage = () => (
  <SessionProvider>
    <Page />
  </SessionProvider>
);

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const counts = Object.fromEntries(MY_LOADS_TABS.map((k) => [k, 0]));
const capped = Object.fromEntries(MY_LOADS_TABS.map((k) => [k, false]));
/** A my-loads API whose `offers` tab holds `load` with `state`; every other tab is empty. */
function stubMyLoads(state?: MyOfferState, over: Partial<Load> = {}) {
  const load = loadFixture(over);
  return stubApi((m, path) => {
    if (m === 'POST' && path === '/chat/conversations') return { status: 201, body: { message: 'ok', data: { id: '01a201b8-62ec-775a-90a3-1e19e1b5fb99' } } };
    if (m !== 'GET' || !path.startsWith('/my-loads')) return undefined;
    const tab = new URLSearchParams(path.split('?')[1]).get('tab');
    const items = tab === 'offers' ? [load] : [];
    const offerStates = tab === 'offers' && state ? { [load.id]: state } : {};
    return {
      body: {
        message: 'ok',
        data: { items, total: items.length, totalCapped: false, nextCursor: null, counts: { ...counts, offers: 1 }, countsCapped: capped, offerStates },
      },
    };
  });
}

/** Issue 23: My Shipments opens on the tab with work for the role; the tabs fit one row. */
describe('MyLoadsPage tabs', () => {
  it('opens a carrier on its active jobs, without the posting tabs, the rest under More', async () => {
    const calls = stubMyLoads();
    renderWithApp(<MyLoadsPage />, { path: '/carriers/my-shipments' });
    const active = await screen.findByTestId('tab-active');
    expect(active.getAttribute('aria-selected')).toBe('true');
    expect(calls.some((c) => c.path.includes('tab=active'))).toBe(true);
    expect(screen.queryByTestId('tab-posted')).toBeNull();
    expect(screen.getAllByRole('tab').map((e) => e.getAttribute('data-testid'))).toEqual([
      'tab-active',
      'tab-offers',
      'tab-customers',
      'tab-finished',
      'tab-bookmarks',
    ]);
    fireEvent.click(screen.getByTestId('tabs-more'));
    fireEvent.click(await screen.findByTestId('tab-more-completed'));
    // the chosen tab joins the row, selected
    expect((await screen.findByTestId('tab-completed')).getAttribute('aria-selected')).toBe('true');
  });

  it('opens a shipper on its posted loads', async () => {
    stubMyLoads();
    renderWithApp(<MyLoadsPage />, { path: '/shippers/my-loads' });
    expect((await screen.findByTestId('tab-posted')).getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('tab')).toHaveLength(5);
  });
});

describe('MyLoadsPage offers tab', () => {
  it('shows a carrier its own offer and that it is its turn, in Arabic', async () => {
    await i18n.changeLanguage('ar');
    stubMyLoads({ side: 'carrier', pending: 1, yourTurn: 1, priceSar: '1900.00', lastOfferBy: 'shipper' });
    renderWithApp(<MyLoadsPage />, { path: '/carriers/my-shipments?tab=offers', dir: 'rtl' });
    const state = await screen.findByTestId('offer-state');
    expect(state.textContent).toContain('عرضك');
    expect(within(state).getByTestId('offer-state-turn').textContent).toBe('دورك');
  });

  it('shows a shipper the lowest of several offers and how many wait for it', async () => {
    stubMyLoads({ side: 'shipper', pending: 3, yourTurn: 2, priceSar: '2100.00', lastOfferBy: 'carrier' });
    renderWithApp(<MyLoadsPage />, { path: '/shippers/my-loads?tab=offers' });
    const state = await screen.findByTestId('offer-state');
    expect(state.textContent).toMatch(/Lowest.*2,100/);
    expect(state.textContent).toContain('3 offers');
    expect(within(state).getByTestId('offer-state-turn').textContent).toBe('2 wait for you');
  });
});

/** Issue 21: chat is one click from each of my shipments that has another party. */
describe('MyLoadsPage chat', () => {
  const carrierId = '01a201b8-62ec-775a-90a3-1e19e1b5fb96';

  it('lets a carrier message the shipper of a load it bid on, named by the company, in Arabic', async () => {
    await i18n.changeLanguage('ar');
    const calls = stubMyLoads({ side: 'carrier', pending: 1, yourTurn: 0, priceSar: '1900.00', lastOfferBy: 'carrier' });
    renderWithApp(<MyLoadsPage />, { path: '/carriers/my-shipments?tab=offers', dir: 'rtl' });
    const button = await screen.findByTestId('message-shipper');
    expect(button.getAttribute('aria-label')).toBe('راسل \u2068Najd Foods\u2069');
    fireEvent.click(button);
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/chat/conversations')).toBe(true));
    const post = calls.find((c) => c.method === 'POST' && c.path === '/chat/conversations')!;
    expect(post.body).toEqual({ loadId: loadFixture().id });
  });

  it('lets a shipper message the carrier that booked its load, and not on a load nobody booked', async () => {
    const calls = stubMyLoads(
      { side: 'shipper', pending: 1, yourTurn: 1, priceSar: '2100.00', lastOfferBy: 'carrier' },
      { isMine: true, carrierId, status: 'unassigned' },
    );
    renderWithApp(<MyLoadsPage />, { path: '/shippers/my-loads?tab=offers' });
    const button = await screen.findByTestId('message-carrier');
    expect(button.getAttribute('aria-label')).toBe('Message the carrier');
    fireEvent.click(button);
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.path === '/chat/conversations')?.body).toEqual({ loadId: loadFixture().id, counterpartId: carrierId }),
    );
    cleanup();

    stubMyLoads({ side: 'shipper', pending: 1, yourTurn: 1, priceSar: '2100.00', lastOfferBy: 'carrier' }, { isMine: true });
    renderWithApp(<MyLoadsPage />, { path: '/shippers/my-loads?tab=offers' });
    await screen.findByTestId('offer-state');
    expect(screen.queryByTestId('message-carrier')).toBeNull();
    expect(screen.queryByTestId('message-shipper')).toBeNull();
  });
});

/** Issue 23: the results table serves My Shipments too, with a status column and no sorting heads. */
describe('MyLoadsPage table display', () => {
  it('lists my shipments in the table by default, with their status and actions', async () => {
    stubMyLoads(
      { side: 'shipper', pending: 1, yourTurn: 1, priceSar: '2100.00', lastOfferBy: 'carrier' },
      { isMine: true, status: 'assigned', carrierId: '01a201b8-62ec-775a-90a3-1e19e1b5fb96' },
    );
    renderWithApp(<MyLoadsPage />, { path: '/shippers/my-loads?tab=offers' });
    const table = await screen.findByTestId('loads-table');
    const heads = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(heads.slice(0, 3)).toEqual(['Ref.', 'Status', 'Posted']);
    // the server's sorts belong to the board: no head sorts here
    expect(within(table).queryAllByRole('button', { name: /Posted|Price|Pickup/ })).toHaveLength(0);
    const row = within(table).getByTestId(`load-row-${loadFixture().referenceId}`);
    expect(within(row).getByText('Assigned')).toBeTruthy();
    expect(await within(row).findByTestId('message-carrier')).toBeTruthy();
    expect(within(row).getByTestId('offer-state')).toBeTruthy();
  });

  it('shows the cards when grid is chosen, and back to the table by the toggle', async () => {
    stubMyLoads({ side: 'shipper', pending: 1, yourTurn: 1, priceSar: '2100.00', lastOfferBy: 'carrier' }, { isMine: true });
    renderWithApp(<MyLoadsPage />, { path: '/shippers/my-loads?tab=offers&display=grid' });
    const row = await screen.findByTestId(`load-row-${loadFixture().referenceId}`);
    expect(screen.queryByTestId('loads-table')).toBeNull();
    expect(within(row).getByTestId('offer-state')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Table' }));
    expect(await screen.findByTestId('loads-table')).toBeTruthy();
  });
});
