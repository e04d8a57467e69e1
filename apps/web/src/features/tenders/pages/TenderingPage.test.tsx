import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Tender, TenderInvite } from '@masar/shared';
import i18n, { loadNamespaces } from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import TenderingPage from './TenderingPage';
import { tenderFormToBody } from '../components/TenderDialog';

beforeAll(async () => {
  await loadNamespaces(['tenders'], 'en');
  await loadNamespaces(['tenders'], 'ar');
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const invite = (n: number, over: Partial<TenderInvite> = {}): TenderInvite => ({
  id: id(100 + n),
  carrierId: id(200 + n),
  carrierCompany: `Carrier ${n}`,
  position: n,
  status: 'invited',
  amountSar: null,
  answeredAt: null,
  invitedAt: '2026-11-26T10:00:00.000Z',
  windowEndsAt: null,
  verified: true,
  waslVerified: true,
  blocked: false,
  compliant: true,
  ...over,
});
const tender = (over: Partial<Tender> = {}): Tender => ({
  id: id(1),
  loadId: id(2),
  loadReferenceId: 'SHP-26-000042',
  loadStatus: 'posted',
  loadPriceSar: '3000.00',
  lane: { fromEn: 'Riyadh', fromAr: 'الرياض', toEn: 'Jeddah', toAr: 'جدة' },
  pickupAt: '2026-11-28T06:00:00.000Z',
  equipmentType: 'flatbed_trailer',
  ownerId: id(3),
  ownerCompany: 'Najd Cement',
  mode: 'broadcast',
  deadline: '2026-11-27T10:00:00.000Z',
  targetRateSar: '2800.00',
  stepMinutes: 30,
  postToBoardOnClose: false,
  status: 'open',
  awardedInviteId: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  isMine: true,
  invites: [],
  lowestCompliantInviteId: null,
  ...over,
});
const page = (items: Tender[]) => ({ body: { message: 'ok', data: { items, nextCursor: null } } });

describe('TenderingPage', { timeout: 30_000 }, () => {
  it('a shipper sees the answers side by side, the lowest compliant one marked, and awards it after a confirm', async () => {
    const sent = tender({
      invites: [
        invite(1, { status: 'accepted', amountSar: '2800.00' }),
        invite(2, { status: 'countered', amountSar: '2500.00', waslVerified: false, compliant: false }),
        invite(3, { status: 'countered', amountSar: '2650.00' }),
      ],
      lowestCompliantInviteId: id(103),
    });
    const calls = stubApi((m, path) => {
      if (m === 'GET' && path.startsWith('/tenders?')) return page([sent]);
      if (m === 'POST' && path === `/tenders/${sent.id}/award`) return { body: { message: 'ok', data: { ...sent, status: 'awarded' } } };
      return undefined;
    });
    renderWithApp(<TenderingPage />, { path: '/shippers/tendering-shipment' });
    const card = await screen.findByTestId('tender-SHP-26-000042');
    expect(calls.some((c) => c.path.includes('tab=sent'))).toBe(true);
    const lowest = within(card).getByTestId('invite-3');
    expect(lowest.getAttribute('data-lowest')).toBe('true');
    expect(within(lowest).getByText('Lowest compliant')).toBeTruthy();
    expect(within(card).getByTestId('invite-2').getAttribute('data-lowest')).toBeNull();
    await userEvent.click(within(lowest).getByRole('button', { name: 'Award' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Award and book' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.path.endsWith('/award'))?.body).toEqual({ inviteId: id(103) }));

    // issue 21: each invitee can be messaged about the load from its row, named by its company
    await userEvent.click(await within(within(card).getByTestId('invite-2')).findByRole('button', { name: 'Message \u2068Carrier 2\u2069' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.path === '/chat/conversations')?.body).toEqual({ loadId: id(2), counterpartId: id(202) }),
    );
  });

  it('a carrier answers a received tender in Arabic: accept at the target rate, or counter with an amount', async () => {
    await i18n.changeLanguage('ar');
    const received = tender({ isMine: false, invites: [invite(1)] });
    const calls = stubApi((m, path) => {
      if (m === 'GET' && path.startsWith('/tenders?')) return page([received]);
      if (m === 'POST' && path.endsWith('/answer')) return { body: { message: 'ok', data: received } };
      return undefined;
    });
    renderWithApp(<TenderingPage />, { path: '/carriers/tendering-shipment', dir: 'rtl' });
    await screen.findByTestId('tender-SHP-26-000042');
    expect(calls.some((c) => c.path.includes('tab=received'))).toBe(true);
    expect(screen.getByTestId('answer-accept').textContent).toContain('قبول');
    // issue 21: the invited carrier can message the shipper about the load
    expect((await screen.findByTestId('message-shipper')).textContent).toBe('راسل \u2068Najd Cement\u2069');
    // a counter without an amount is refused here, in Arabic
    await userEvent.click(screen.getByTestId('answer-counter'));
    expect(await screen.findByText('أدخل مبلغك.')).toBeTruthy();
    await userEvent.click(screen.getByTestId('answer-decline'));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.path.endsWith('/answer'))?.body).toEqual({ action: 'decline' }));
  });

  it('the dialog form becomes the API body: favourites as carrier ids, vendors as vendor ids, waterfall minutes', () => {
    expect(
      tenderFormToBody({
        loadId: id(2),
        picked: [`u:${id(5)}`, `v:${id(6)}`],
        deadline: '2026-11-27 13:00:00',
        targetRateSar: 2800,
        waterfall: true,
        stepMinutes: 15,
        postToBoardOnClose: true,
      }),
    ).toEqual({
      loadId: id(2),
      carrierIds: [id(5)],
      vendorIds: [id(6)],
      deadline: '2026-11-27T13:00:00+03:00',
      targetRateSar: '2800',
      mode: 'waterfall',
      stepMinutes: 15,
      postToBoardOnClose: true,
    });
  });
});
