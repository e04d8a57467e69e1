import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { LaneRate } from '@masar/shared';
import i18n from '../i18n';
import { renderWithApp, stubApi } from '../test/render';
import { compareToAverage, LaneRateHint } from './LaneRateHint';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const figures = { average: 3400, median: 3380, p25: 3100, p75: 3700, p2_5: 2600, p97_5: 4300, stdDev: 420 };
const rate = (over: Partial<LaneRate> = {}): LaneRate => ({
  enough: true,
  code: 'OK',
  period: { from: '2026-11-08', to: '2026-12-05' },
  kind: 'spot',
  equipment: null,
  windowRequested: 30,
  geography: { level: 'city_city', origin: { id: 3, en: 'Riyadh', ar: 'الرياض' }, destination: { id: 18, en: 'Jeddah', ar: 'جدة' } },
  window: 30,
  perTrip: figures,
  perKm: { ...figures, average: 3.6 },
  records: 120,
  companies: 40,
  outliersExcluded: 1,
  own: { average: null, records: 0 },
  ...over,
});

describe('LaneRateHint (issue 20)', () => {
  it('compares a price with the average: whole percent, "at" within 1 %', () => {
    expect(compareToAverage(3672, 3400)).toEqual({ side: 'above', pct: 8 });
    expect(compareToAverage(3000, 3400)).toEqual({ side: 'below', pct: 12 });
    expect(compareToAverage(3410, 3400)).toEqual({ side: 'at', pct: 0 });
  });

  it("says how the price stands against the lane's 30-day spot average, asking GET /rates/lane", async () => {
    const calls = stubApi((m, path) => (path.startsWith('/rates/lane') ? { body: { message: 'OK', data: rate() } } : undefined));
    renderWithApp(<LaneRateHint origin={3} destination={18} equipment="reefer_trailer" price={3672} />);
    expect((await screen.findByTestId('lane-rate-hint')).textContent?.replace(/\s/g, ' ')).toBe(
      'This price is 8% above the spot average on this lane over 30 days (SAR 3,400).',
    );
    expect(calls[0].path).toBe('/rates/lane?origin=3&destination=18&kind=spot&window=30&equipment=reefer_trailer');
  });

  it('in Arabic with Arabic-Indic digits', async () => {
    await i18n.changeLanguage('ar');
    stubApi((m, path) => (path.startsWith('/rates/lane') ? { body: { message: 'OK', data: rate() } } : undefined));
    renderWithApp(<LaneRateHint origin={3} destination={18} price="3000" />, { dir: 'rtl' });
    const text = (await screen.findByTestId('lane-rate-hint')).textContent ?? '';
    expect(text).toContain('أقل');
    expect(text).toContain('١٢');
    expect(text).not.toMatch(/[0-9]/);
  });

  it('says "not enough data for this lane" without a figure, and nothing without a complete lane', async () => {
    const calls = stubApi((m, path) =>
      path.startsWith('/rates/lane')
        ? { body: { message: 'OK', data: rate({ enough: false, code: 'NOT_ENOUGH_DATA', period: null, geography: null, perTrip: null, perKm: null }) } }
        : undefined,
    );
    renderWithApp(<LaneRateHint origin={3} destination={18} price={3000} />);
    expect((await screen.findByTestId('lane-rate-hint')).textContent).toBe('Not enough data for this lane yet');
    cleanup();
    const { container } = renderWithApp(<LaneRateHint origin={3} destination={null} price={3000} />);
    expect(calls.length).toBe(1);
    expect(container.querySelector('[data-testid="lane-rate-hint"]')).toBeNull();
  });

  // issue 46: a thin lane answered with a wider geography's figure never shows that figure as the lane's
  const national = rate({
    code: 'LANE_NOT_ENOUGH_DATA',
    geography: { level: 'national', origin: null, destination: null },
    perTrip: { ...figures, average: 3259 },
  });
  it.each([
    ['en', 'Not enough data for this lane yet'],
    ['ar', 'لا تتوفر بيانات كافية لهذا المسار'],
  ] as const)("a wider geography's figure (%s): the lane says it has not enough data, and no average", async (lang, text) => {
    await i18n.changeLanguage(lang);
    stubApi((m, path) => (path.startsWith('/rates/lane') ? { body: { message: 'OK', data: national } } : undefined));
    renderWithApp(<LaneRateHint origin={3} destination={18} price={3000} />, { dir: lang === 'ar' ? 'rtl' : 'ltr' });
    const hint = await screen.findByTestId('lane-rate-hint');
    expect(hint.textContent).toBe(text);
    expect(hint.textContent).not.toMatch(/3,?259|٣٬?٢٥٩/);
  });
});
