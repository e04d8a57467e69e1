import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import i18n from '../i18n';
import { loadFixture } from '../test/fixtures';
import { renderWithApp, stubApi } from '../test/render';
import { asLang, formatMoney } from './format';
import { LoadCard } from './LoadCard';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

/**
 * The agreed price (issue 22): a load booked after a counter offer shows the agreed price and its
 * rate per km on its card (my shipments, completed shipments), the posted price beside it labelled
 * "posted", in English and Arabic; a posted load shows its price alone.
 */
describe('LoadCard price', () => {
  for (const lang of ['en', 'ar'] as const) {
    it(`shows the agreed price after booking and the posted one as "posted" (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      stubApi(() => undefined);
      const booked = loadFixture({ status: 'completed', carrierId: '01a201b8-62ec-775a-90a3-1e19e1b5fb96', bookedPriceSar: '900.00' });
      renderWithApp(<LoadCard load={booked} />, { dir: lang === 'ar' ? 'rtl' : 'ltr' });
      const price = screen.getByTestId('load-card-price');
      const money = (v: string, decimals?: number) => formatMoney(v, asLang(lang), decimals ? { decimals } : {});
      expect(price.firstElementChild!.textContent).toBe(money('900.00'));
      expect(screen.getByTestId('load-card-posted-price').textContent).toBe(lang === 'ar' ? `السعر المعلن ${money('1000.00')}` : `Posted ${money('1000.00')}`);
      // 900 SAR over 100 km: the rate of the agreed price, not the posted 10.00/km
      expect(price.textContent).toContain(money('9.00', 2));
      expect(price.textContent).not.toContain(money('10.00', 2));
    });
  }

  it('a posted load shows its posted price alone', () => {
    stubApi(() => undefined);
    renderWithApp(<LoadCard load={loadFixture()} />);
    expect(screen.getByTestId('load-card-price').firstElementChild!.textContent).toBe(formatMoney('1000.00', 'en'));
    expect(screen.queryByTestId('load-card-posted-price')).toBeNull();
  });
});
