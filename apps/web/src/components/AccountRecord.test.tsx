import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { AccountRecord } from '@masar/shared';
import i18n from '../i18n';
import { renderWithApp, stubApi } from '../test/render';
import { AccountRecordSummary } from './AccountRecord';
import { asLang, formatPercent } from './format';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const ID = '01a201b8-62ec-775a-90a3-1e19e1b5fb96';
const shown: AccountRecord = {
  accountId: ID,
  newOnMasar: false,
  asCarrier: {
    completed: 12,
    onTimePickupPct: 92,
    pickupsMeasured: 12,
    onTimeDeliveryPct: null,
    deliveriesMeasured: 0,
    cancellationsAfterBooking: 1,
    vehicles: 4,
    waslVerifiedVehicles: 3,
    waslVerifiedPct: 75,
  },
  asShipper: { completed: 6, daysToPay: 12.5, paidShipments: 6, cancellationsAfterBooking: 0 },
};
const fresh: AccountRecord = { accountId: ID, newOnMasar: true, asCarrier: null, asShipper: null };

/** Issue 19 "Fact-based record": the compact record on trucks and offers, and "New on Masar" below 5 completed shipments. */
describe('AccountRecordSummary', () => {
  for (const lang of ['en', 'ar'] as const) {
    it(`shows the carrier's figures, each explained (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      stubApi(() => undefined);
      renderWithApp(<AccountRecordSummary record={shown} expanded />, { dir: lang === 'ar' ? 'rtl' : 'ltr' });
      const pct = (v: number) => formatPercent(v / 100, asLang(lang));
      expect(screen.getByTestId('record-pickup').textContent).toContain(pct(92));
      expect(screen.getByTestId('record-wasl').textContent).toContain(pct(75));
      // nothing measured: a dash, not 0%
      expect(screen.getByTestId('record-delivery').textContent).toContain('—');
      expect(screen.getByTestId('record-completed').textContent).toContain(lang === 'ar' ? 'شحنة مكتملة' : '12 completed');
      expect(screen.queryByTestId('record-new')).toBeNull();
      expect(screen.queryByTestId('record-days-to-pay')).toBeNull();
    });

    it(`says "New on Masar" below 5 completed shipments (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      stubApi(() => undefined);
      renderWithApp(<AccountRecordSummary record={fresh} />, { dir: lang === 'ar' ? 'rtl' : 'ltr' });
      expect(screen.getByTestId('record-new').textContent).toBe(lang === 'ar' ? 'جديد في مسار' : 'New on Masar');
      expect(screen.queryByTestId('record-pickup')).toBeNull();
    });
  }

  it('shows the shipper side: days-to-pay and cancellations', () => {
    stubApi(() => undefined);
    renderWithApp(<AccountRecordSummary record={shown} side="shipper" />);
    expect(screen.getByTestId('record-days-to-pay').textContent).toBe('Pays in 12.5 days');
    expect(screen.getByTestId('record-cancellations').textContent).toBe('0 cancellations');
    expect(screen.queryByTestId('record-wasl')).toBeNull();
  });

  it('a carrier side that is not shown is "New on Masar" even when the shipper side is', () => {
    stubApi(() => undefined);
    renderWithApp(<AccountRecordSummary record={{ ...shown, asCarrier: null }} />);
    expect(screen.getByTestId('record-new')).toBeTruthy();
  });
});
