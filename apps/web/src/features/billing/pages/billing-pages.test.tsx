import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import type { PlanView, SavedCard, Subscription } from '@masar/shared';
import i18n from '../../../i18n';
import { SessionProvider } from '../../../lib/session';
import { readFetch, renderWithApp, stubApi } from '../../../test/render';
import BillingPage from './BillingPage';
import CheckoutPage from './CheckoutPage';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const ok = (data: unknown, status = 200) => ({ status, body: { message: 'OK', data } });
const plan: PlanView = {
  code: 'carrier-monthly',
  audience: 'carrier',
  months: 1,
  name: 'Carrier — monthly',
  priceSar: '199.00',
  vatSar: '29.85',
  totalSar: '228.85',
  features: [],
  trialDays: 10,
};
const card = (id: string, brand: SavedCard['brand'], last4: string, isDefault: boolean): SavedCard => ({
  id: `01a201c4-0000-7000-8000-00000000${id}`,
  brand,
  last4,
  expMonth: 12,
  expYear: 2030,
  holderName: 'Sara Alqahtani',
  isDefault,
  createdAt: '2026-11-01T10:00:00Z',
  lastChargeFailedAt: null,
  lastChargeFailure: null,
});
const visa = card('0001', 'visa', '1111', true);
const mada = card('0002', 'mada', '0007', false);

/** The page as the app shell shows it: session (a guest here: the role comes from the URL) and toasts. */
const inShell = (page: ReactNode) => (
  <SessionProvider>
    <Notifications />
    {page}
  </SessionProvider>
);

describe('CheckoutPage', { timeout: 30_000 }, () => {
  it('pays with the saved card chosen and the promo code applied, and shows the bank refusal', async () => {
    let cards = [visa, mada];
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path === '/plans') return ok({ items: [plan] });
      if (method === 'GET' && path === '/paymentMethod') return ok({ items: cards });
      if (method === 'GET' && path === '/wallet') return ok({ balanceSar: '0.00', entries: [] });
      if (method === 'POST' && path === '/promo/check')
        return ok({
          code: 'WELCOME10',
          planCode: plan.code,
          priceSar: '199.00',
          discountSar: '19.90',
          amountSar: '179.10',
          vatSar: '26.87',
          totalSar: '205.97',
        });
      if (method === 'POST' && path === '/subscription/createIntent') {
        cards = [visa, { ...mada, lastChargeFailedAt: '2026-11-20T10:00:00Z', lastChargeFailure: 'card_declined' }];
        return { status: 402, body: { message: 'The bank declined this card. Try another card.', code: 'PAYMENT_DECLINED' } };
      }
      return undefined;
    });
    renderWithApp(inShell(<CheckoutPage />), { path: '/carriers/checkout?plan=carrier-monthly' });
    const pay = await screen.findByTestId('pay');
    // the default (renewal) card is chosen at first; the payer picks the mada card
    const visaRadio = await screen.findByTestId<HTMLInputElement>('pay-card-1111');
    await waitFor(() => expect(visaRadio.checked).toBe(true));
    expect(pay.textContent).toContain('228.85');
    await userEvent.click(screen.getByTestId('pay-card-0007'));
    expect(screen.getByTestId<HTMLInputElement>('pay-card-0007').checked).toBe(true);

    await userEvent.type(screen.getByTestId('promo-input'), 'WELCOME10');
    await userEvent.click(screen.getByTestId('promo-apply'));
    await waitFor(() => expect(screen.getByTestId('pay').textContent).toContain('205.97'));
    expect(screen.getByText('Discount (WELCOME10)')).toBeTruthy();

    await userEvent.click(screen.getByTestId('pay'));
    expect(await screen.findByText('The bank declined this card. Try another card.')).toBeTruthy();
    const intents = calls.filter((c) => c.method === 'POST' && c.path === '/subscription/createIntent');
    expect(intents).toHaveLength(1);
    expect(intents[0].body).toMatchObject({ purpose: 4, planCode: plan.code, cardId: mada.id, promoCode: 'WELCOME10' });
    expect(intents[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    // the declined card is shown as declined and no card is chosen for the payer: they pick the next one
    expect(await screen.findByTestId('card-declined-0007')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId<HTMLButtonElement>('pay').disabled).toBe(true));
    expect(screen.getByTestId<HTMLInputElement>('pay-card-0007').checked).toBe(false);
    expect(screen.getByTestId<HTMLInputElement>('pay-card-1111').checked).toBe(false);
    // a refused payment is over: trying again is a new attempt with a new key
    await userEvent.click(screen.getByTestId('pay-card-1111'));
    await userEvent.click(screen.getByTestId('pay'));
    await waitFor(() => expect(calls.filter((c) => c.path === '/subscription/createIntent')).toHaveLength(2));
    const [first, second] = calls.filter((c) => c.path === '/subscription/createIntent');
    expect(second.headers['idempotency-key']).not.toBe(first.headers['idempotency-key']);
  });

  it('shows why a promo code is refused, in Arabic, and keeps the full price', async () => {
    await i18n.changeLanguage('ar');
    stubApi((method, path) => {
      if (method === 'GET' && path === '/plans') return ok({ items: [{ ...plan, name: 'الناقل — شهري' }] });
      if (method === 'GET' && path === '/paymentMethod') return ok({ items: [] });
      if (method === 'GET' && path === '/wallet') return ok({ balanceSar: '0.00', entries: [] });
      if (method === 'POST' && path === '/promo/check') return { status: 400, body: { message: 'انتهت صلاحية رمز الخصم.', code: 'PROMO_EXPIRED' } };
      return undefined;
    });
    renderWithApp(inShell(<CheckoutPage />), { path: '/carriers/checkout?plan=carrier-monthly', dir: 'rtl' });
    await userEvent.type(await screen.findByTestId('promo-input'), 'OLD');
    await userEvent.click(screen.getByTestId('promo-apply'));
    expect(await screen.findByText('انتهت صلاحية رمز الخصم.')).toBeTruthy();
    // no card yet: nothing to pay with, and the page says so
    expect(screen.getByText('لا توجد بطاقة محفوظة بعد. أضف بطاقة للدفع.')).toBeTruthy();
    expect(screen.getByTestId<HTMLButtonElement>('pay').disabled).toBe(true);
  });
});

describe('BillingPage', { timeout: 30_000 }, () => {
  const pastDue: Subscription = {
    id: '01a201c4-0000-7000-8000-0000000000a1',
    planCode: 'carrier-monthly',
    planName: 'Carrier — monthly',
    status: 'past_due',
    active: true,
    trial: false,
    startedAt: '2026-10-25T10:00:00Z',
    currentPeriodEnd: '2026-11-25T10:00:00Z',
    cancelAtPeriodEnd: true,
    renewsAt: null,
    priceSar: '199.00',
  };

  it('shows a plan whose renewal failed, the cards with the renewal one, and links to the saved cards page', async () => {
    stubApi((method, path) => {
      if (method === 'GET' && path === '/subscription') return ok(pastDue);
      if (method === 'GET' && path === '/paymentMethod') return ok({ items: [visa, mada] });
      if (method === 'GET' && path === '/wallet') return ok({ balanceSar: '50.00', entries: [] });
      if (method === 'GET' && path.startsWith('/invoices')) return ok({ items: [] });
      return undefined;
    });
    renderWithApp(inShell(<BillingPage />), { path: '/carriers/billing-and-invoice' });
    expect(await screen.findByText('Carrier — monthly')).toBeTruthy();
    const planCard = screen.getByTestId('plan-card');
    expect(within(planCard).getByText('Payment failed')).toBeTruthy();
    // it ends with its period instead of renewing; another plan can be chosen
    expect(within(planCard).queryByTestId('cancel-plan')).toBeNull();
    expect(within(planCard).getByTestId('change-plan').getAttribute('href')).toBe('/carriers/pricing');
    expect(await screen.findByTestId('card-default-1111')).toBeTruthy();
    expect(screen.queryByTestId('card-default-0007')).toBeNull();
    expect(screen.getByTestId('saved-cards-link').getAttribute('href')).toBe('/carriers/saved-cards');
    expect(screen.getByText('Your VAT invoices appear here after your first payment.')).toBeTruthy();
  });

  it('a wallet recharge keeps its button busy until the balance is read again (the mutation awaits its onSuccess)', async () => {
    let balance = '50.00';
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path === '/subscription') return ok(null);
      if (method === 'GET' && path === '/paymentMethod') return ok({ items: [visa] });
      if (method === 'GET' && path === '/wallet') return ok({ balanceSar: balance, entries: [] });
      if (method === 'GET' && path.startsWith('/invoices')) return ok({ items: [] });
      if (method === 'POST' && path === '/subscription/createIntent') {
        balance = '150.00';
        return ok({ id: '01a201c4-0000-7000-8000-0000000000b1', status: 'succeeded', actionUrl: null });
      }
      return undefined;
    });
    // hold the wallet's read after the payment until the test lets it through
    const stub = globalThis.fetch;
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    vi.stubGlobal('fetch', async (input: Request, init?: RequestInit) => {
      const { method, url } = await readFetch(input, init);
      if (method === 'GET' && url.pathname.endsWith('/wallet') && calls.some((c) => c.path === '/subscription/createIntent')) await held;
      return stub(input, init);
    });
    renderWithApp(inShell(<BillingPage />), { path: '/carriers/billing-and-invoice' });
    expect(await screen.findByTestId('wallet-balance')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('wallet-balance').textContent).toMatch(/SAR\s50$/));
    const recharge = screen.getByRole('button', { name: 'Recharge' });
    await waitFor(() => expect(recharge.hasAttribute('disabled')).toBe(false));
    await userEvent.click(recharge);
    expect(await screen.findByText('Payment successful.')).toBeTruthy();
    expect(recharge.getAttribute('data-loading')).toBe('true');
    release();
    await waitFor(() => expect(screen.getByTestId('wallet-balance').textContent).toMatch(/SAR\s150$/));
    await waitFor(() => expect(recharge.hasAttribute('data-loading')).toBe(false));
  });

  it('/saved-cards lists the cards in Arabic, makes another the renewal card and removes one', async () => {
    await i18n.changeLanguage('ar');
    let cards = [visa, mada];
    const calls = stubApi((method, path) => {
      if (method === 'GET' && path === '/paymentMethod') return ok({ items: cards });
      if (method === 'POST' && path === `/paymentMethod/${mada.id}/default`) {
        cards = [
          { ...visa, isDefault: false },
          { ...mada, isDefault: true },
        ];
        return ok(null);
      }
      if (method === 'DELETE' && path === `/paymentMethod/${visa.id}`) {
        cards = cards.filter((c) => c.id !== visa.id);
        return ok(null);
      }
      return undefined;
    });
    renderWithApp(inShell(<BillingPage />), { path: '/shippers/saved-cards', dir: 'rtl' });
    expect(await screen.findByRole('heading', { name: 'البطاقات المحفوظة', level: 1 })).toBeTruthy();
    const row = await screen.findByTestId('card-0007');
    expect(row.textContent).toContain('مدى');
    // one digit system in Arabic: the expiry month too, not only the year
    expect(row.textContent).toContain('١٢/٢٠٣٠');
    // the note's "last 4 digits" is a quantity: Arabic-Indic too
    expect(screen.getByText(/وآخر ٤ أرقام/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'استخدم بطاقة مدى المنتهية بـ 0007 للتجديد' }));
    expect(await screen.findByTestId('card-default-0007')).toBeTruthy();
    await userEvent.click(screen.getByTestId('card-remove-1111'));
    await waitFor(() => expect(screen.queryByTestId('card-1111')).toBeNull());
    expect(calls.filter((c) => c.method !== 'GET' && c.path.startsWith('/paymentMethod')).map((c) => `${c.method} ${c.path}`)).toEqual([
      `POST /paymentMethod/${mada.id}/default`,
      `DELETE /paymentMethod/${visa.id}`,
    ]);
    expect(screen.getByRole('link', { name: 'العودة إلى الفوترة والفواتير' }).getAttribute('href')).toBe('/shippers/billing-and-invoice');
  });
});

describe('a card the bank declined (issue 22)', { timeout: 30_000 }, () => {
  const declined = (c: SavedCard): SavedCard => ({ ...c, isDefault: true, lastChargeFailedAt: '2026-11-20T10:00:00Z', lastChargeFailure: 'card_declined' });

  it('is not preselected at checkout even when it is still marked default', async () => {
    stubApi((method, path) => {
      if (method === 'GET' && path === '/plans') return ok({ items: [plan] });
      if (method === 'GET' && path === '/paymentMethod') return ok({ items: [declined(visa), mada] });
      if (method === 'GET' && path === '/wallet') return ok({ balanceSar: '0.00', entries: [] });
      return undefined;
    });
    renderWithApp(inShell(<CheckoutPage />), { path: '/carriers/checkout?plan=carrier-monthly' });
    expect(await screen.findByTestId('card-declined-1111')).toBeTruthy();
    expect(screen.getByTestId<HTMLInputElement>('pay-card-1111').checked).toBe(false);
    expect(screen.getByTestId<HTMLButtonElement>('pay').disabled).toBe(true);
    expect(screen.getByText('Choose a card or your wallet.')).toBeTruthy();
  });

  for (const lang of ['en', 'ar'] as const) {
    it(`is shown as declined on the saved cards page with a Remove action, not as the renewal card (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      let cards = [{ ...declined(mada), isDefault: false }, visa];
      const calls = stubApi((method, path) => {
        if (method === 'GET' && path === '/paymentMethod') return ok({ items: cards });
        if (method === 'DELETE' && path === `/paymentMethod/${mada.id}`) {
          cards = [visa];
          return ok(null);
        }
        return undefined;
      });
      renderWithApp(inShell(<BillingPage />), { path: '/shippers/saved-cards', dir: lang === 'ar' ? 'rtl' : 'ltr' });
      const row = await screen.findByTestId('card-0007');
      expect(within(row).getByTestId('card-declined-0007').textContent).toBe(lang === 'ar' ? 'مرفوضة' : 'Declined');
      // no "use for renewals" on a declined card
      expect(within(row).queryByTestId('card-set-default-0007')).toBeNull();
      const remove = within(row).getByTestId('card-remove-0007');
      expect(remove.textContent).toBe(lang === 'ar' ? 'حذف' : 'Remove');
      await userEvent.click(remove);
      await waitFor(() => expect(screen.queryByTestId('card-0007')).toBeNull());
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/paymentMethod/${mada.id}`]);
      expect(screen.getByTestId('card-default-1111')).toBeTruthy();
    });
  }
});
