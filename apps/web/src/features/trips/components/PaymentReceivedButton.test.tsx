import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from '../../../i18n';
import { formatMoney } from '../../../components/format';
import { renderWithApp, stubApi } from '../../../test/render';
import { PAYMENT_UNDO_MS, PaymentReceivedButton } from './PaymentReceivedButton';

/** Issue 23: "payment received" asks first with the amount, then can be undone for 10 s before it is sent. */
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const api = () => stubApi((method, path) => (method === 'POST' && path === '/loads/L1/payment-received' ? { body: { message: 'OK', data: null } } : undefined));
const posts = (calls: ReturnType<typeof api>) => calls.filter((c) => c.method === 'POST');

async function confirmPayment(amountText: string) {
  fireEvent.click(await screen.findByTestId('payment-received'));
  expect((await screen.findByTestId('payment-amount')).textContent).toContain(amountText);
  fireEvent.click(screen.getByTestId('payment-confirm'));
  await screen.findByTestId('payment-undo');
}

describe('PaymentReceivedButton', () => {
  for (const lang of ['en', 'ar'] as const)
    it(`(${lang}) confirms with the amount in the page's digits, and sends only when the undo window closes`, async () => {
      await i18n.changeLanguage(lang);
      const calls = api();
      renderWithApp(<PaymentReceivedButton loadId="L1" amountSar="4200.00" />, { dir: lang === 'ar' ? 'rtl' : 'ltr' });
      vi.useFakeTimers({ shouldAdvanceTime: true });
      await confirmPayment(formatMoney('4200.00', lang));
      act(() => void vi.advanceTimersByTime(PAYMENT_UNDO_MS - 100));
      expect(posts(calls)).toHaveLength(0);
      act(() => void vi.advanceTimersByTime(200));
      await waitFor(() => expect(posts(calls)).toHaveLength(1));
    });

  it('Undo inside the window sends nothing, and the button is back', async () => {
    const calls = api();
    renderWithApp(<PaymentReceivedButton loadId="L1" amountSar="4200.00" />);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await confirmPayment('4,200');
    act(() => void vi.advanceTimersByTime(PAYMENT_UNDO_MS / 2));
    fireEvent.click(screen.getByTestId('payment-undo'));
    act(() => void vi.advanceTimersByTime(PAYMENT_UNDO_MS * 2));
    expect(screen.getByTestId('payment-received')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
  });

  it('Cancel in the confirmation sends nothing', async () => {
    const calls = api();
    renderWithApp(<PaymentReceivedButton loadId="L1" amountSar="4200.00" />);
    fireEvent.click(await screen.findByTestId('payment-received'));
    await screen.findByTestId('payment-amount');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('payment-amount')).toBeNull());
    expect(screen.queryByTestId('payment-undo')).toBeNull();
    expect(posts(calls)).toHaveLength(0);
  });
});
