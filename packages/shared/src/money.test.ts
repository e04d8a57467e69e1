import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromHalalas, isMoneyString, loadPriceOf, normalizeMoney, ratePerKmSar, toHalalas, vatHalalas } from './money.ts';

describe('money (SAR exact to the halala)', () => {
  it('converts between decimal strings and halalas', () => {
    expect(toHalalas('1500')).toBe(150000);
    expect(toHalalas('1500.5')).toBe(150050);
    expect(toHalalas('0.07')).toBe(7);
    expect(fromHalalas(150050)).toBe('1500.50');
    expect(fromHalalas(-7)).toBe('-0.07');
    expect(normalizeMoney('9999999999.99')).toBe('9999999999.99');
  });

  it('refuses anything that is not a money string instead of rounding it', () => {
    for (const bad of ['1.005', '1e2', '-1', ' 1', '01', '', '10000000000']) {
      expect(isMoneyString(bad), bad).toBe(false);
      expect(() => toHalalas(bad)).toThrow(RangeError);
    }
    expect(() => fromHalalas(1.5)).toThrow(RangeError);
  });

  it('round-trips every amount up to the largest price', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999 }), (h) => {
        expect(toHalalas(fromHalalas(h))).toBe(h);
      }),
    );
  });

  it('adds up where floats do not (0.1 + 0.2)', () => {
    expect(fromHalalas(toHalalas('0.10') + toHalalas('0.20'))).toBe('0.30');
  });

  it('computes 15% VAT rounded half up to the halala', () => {
    expect(vatHalalas(toHalalas('100.00'))).toBe(1500);
    expect(vatHalalas(toHalalas('0.10'))).toBe(2); // 1.5 halalas → 2
    expect(vatHalalas(toHalalas('0.03'))).toBe(0); // 0.45 → 0
    expect(vatHalalas(toHalalas('1234.56'))).toBe(18518); // 185.184 SAR → 185.18
  });

  it('rates per km to the halala', () => {
    expect(ratePerKmSar('4200.00', 950)).toBe('4.42');
    expect(ratePerKmSar('100', 0)).toBe('0.00');
  });
});

describe('loadPriceOf (issue 22: the agreed price after booking)', () => {
  it('is the posted price before booking and the booked one after, with its own rate per km', () => {
    expect(loadPriceOf({ priceSar: '4200.00', ratePerKmSar: '4.42', bookedPriceSar: null, distanceKm: 950 })).toEqual({
      priceSar: '4200.00',
      ratePerKmSar: '4.42',
      postedPriceSar: '4200.00',
      agreed: false,
    });
    expect(loadPriceOf({ priceSar: '4200.00', ratePerKmSar: '4.42', bookedPriceSar: '3800.00', distanceKm: 950 })).toEqual({
      priceSar: '3800.00',
      ratePerKmSar: '4.00',
      postedPriceSar: '4200.00',
      agreed: true,
    });
  });
});
