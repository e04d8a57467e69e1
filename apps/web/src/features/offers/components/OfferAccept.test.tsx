import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { Offer } from '@masar/shared';
import i18n from '../../../i18n';
import { formatMoney } from '../../../components/format';
import { renderWithApp, stubApi } from '../../../test/render';
import { OfferActions } from './OfferActions';

/** Issue 23: accepting an offer books the load, so it asks first, showing the amount. */
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const offer = { id: 'O1', loadId: 'L1', status: 'pending', lastOfferBy: 'carrier', priceSar: '4200.00', originalPriceSar: '4200.00' } as Offer;
const api = () => stubApi((method, path) => (method === 'POST' && path === '/offerRespond' ? { body: { message: 'OK', data: {} } } : undefined));
const posts = (calls: ReturnType<typeof api>) => calls.filter((c) => c.method === 'POST');

describe('accepting an offer', () => {
  for (const lang of ['en', 'ar'] as const)
    it(`(${lang}) asks with the amount in the page's digits; only the confirmation sends it`, async () => {
      await i18n.changeLanguage(lang);
      const calls = api();
      renderWithApp(<OfferActions offer={offer} side="shipper" />, { dir: lang === 'ar' ? 'rtl' : 'ltr' });
      fireEvent.click(screen.getByTestId('offer-accept'));
      expect((await screen.findByTestId('offer-accept-amount')).textContent).toContain(formatMoney('4200.00', lang));
      expect(posts(calls)).toHaveLength(0);
      fireEvent.click(screen.getByTestId('offer-accept-confirm'));
      await waitFor(() => expect(posts(calls)).toHaveLength(1));
      expect(posts(calls)[0].body).toEqual({ offerId: 'O1', action: 'accept' });
    });

  it('Cancel sends nothing', async () => {
    const calls = api();
    renderWithApp(<OfferActions offer={offer} side="shipper" />);
    fireEvent.click(screen.getByTestId('offer-accept'));
    fireEvent.click(await screen.findByTestId('offer-accept-cancel'));
    await waitFor(() => expect(screen.queryByTestId('offer-accept-amount')).toBeNull());
    expect(posts(calls)).toHaveLength(0);
  });
});
