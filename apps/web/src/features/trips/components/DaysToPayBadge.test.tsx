import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { DaysToPayBadge } from './DaysToPayBadge';

const SHIPPER = '01a201c4-0000-7000-8000-00000000000a';
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DaysToPayBadge', () => {
  it('shows the shipper’s average days-to-pay, fetching its own strings', async () => {
    await i18n.changeLanguage('en');
    const calls = stubApi((method, path) =>
      method === 'GET' && path === `/shippers/${SHIPPER}/days-to-pay`
        ? { body: { message: 'OK', data: { shipperId: SHIPPER, averageDays: 12.5, count: 7 } } }
        : undefined,
    );
    renderWithApp(<DaysToPayBadge shipperId={SHIPPER} />);
    const badge = await screen.findByTestId('days-to-pay');
    expect(badge.textContent).toBe('Pays in 12.5 days on average');
    expect(badge.getAttribute('data-count')).toBe('7');
    expect(calls).toHaveLength(1);
  });

  it('says when there is no payment history, in Arabic', async () => {
    await i18n.changeLanguage('ar');
    stubApi(() => ({ body: { message: 'OK', data: { shipperId: SHIPPER, averageDays: null, count: 0 } } }));
    renderWithApp(<DaysToPayBadge shipperId={SHIPPER} />, { dir: 'rtl' });
    expect((await screen.findByTestId('days-to-pay')).textContent).toBe('لا يوجد سجل دفعات بعد');
    await i18n.changeLanguage('en');
  });
});
