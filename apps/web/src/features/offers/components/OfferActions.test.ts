import { describe, expect, it } from 'vitest';
import type { Offer } from '@masar/shared';
import { isMyTurn } from './OfferActions';

describe('offer turns', () => {
  const offer = (o: Partial<Offer>) => ({ status: 'pending', lastOfferBy: 'carrier', ...o }) as Offer;
  it('the party that did not name the last price answers it', () => {
    expect(isMyTurn(offer({ lastOfferBy: 'carrier' }), 'shipper')).toBe(true);
    expect(isMyTurn(offer({ lastOfferBy: 'carrier' }), 'carrier')).toBe(false);
    expect(isMyTurn(offer({ lastOfferBy: 'shipper' }), 'carrier')).toBe(true);
  });
  it('closed offers are nobody’s turn', () => {
    for (const status of ['accepted', 'rejected', 'closed', 'withdrawn'] as const) expect(isMyTurn(offer({ status }), 'shipper')).toBe(false);
  });
});
