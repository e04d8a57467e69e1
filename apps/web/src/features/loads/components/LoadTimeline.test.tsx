import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import i18n from '../../../i18n';
import { renderWithApp, stubApi } from '../../../test/render';
import { LoadTimeline } from './LoadTimeline';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LOAD = '01a20800-0000-7000-8000-000000000101';
const entry = (n: number, type: string, data: Record<string, unknown> = {}) => ({
  eventId: `01a20800-0000-7000-8000-00000000090${n}`,
  type,
  actorId: null,
  actorCompany: 'Najd Shippers',
  data,
  at: `2026-11-2${n}T08:00:00Z`,
});

describe('the shipment timeline', () => {
  it('shows a close without proof of delivery with the shipper’s reason, in English and Arabic', { timeout: 60_000 }, async () => {
    stubApi((method, path) =>
      method === 'GET' && path === `/loads/${LOAD}/timeline`
        ? {
            body: {
              message: 'OK',
              data: {
                items: [
                  entry(1, 'load.booked'),
                  entry(2, 'trip.step', { step: 'started' }),
                  entry(3, 'load.delivery_override', { reason: 'Paper delivery note signed', action: 'bayan_closed' }),
                  entry(4, 'load.bayan_closed'),
                ],
              },
            },
          }
        : undefined,
    );
    await i18n.changeLanguage('en');
    renderWithApp(<LoadTimeline loadId={LOAD} />);
    const card = await screen.findByTestId('load-timeline');
    expect(await within(card).findByText('Closed without proof of delivery (shipper override)')).toBeTruthy();
    expect(within(card).getByTestId('timeline-override-reason').textContent).toBe('Reason given: Paper delivery note signed');
    expect(within(card).queryByText('Driver trip step')).toBeNull();
    cleanup();
    await i18n.changeLanguage('ar');
    renderWithApp(<LoadTimeline loadId={LOAD} />, { dir: 'rtl' });
    const ar = await screen.findByTestId('load-timeline');
    expect(await within(ar).findByText('إغلاق بدون إثبات التسليم (تجاوز من الشاحن)')).toBeTruthy();
    expect(within(ar).getByTestId('timeline-override-reason').textContent).toBe('السبب المذكور: Paper delivery note signed');
    await i18n.changeLanguage('en');
  });
});
