import { describe, expect, it } from 'vitest';
import { createLoadBody, searchLoadsQuery, updateLoadBody, type CreateLoadBody } from './loads.ts';
import { offerRespondBody } from './offers.ts';

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

/** A valid Riyadh → Jeddah FTL load; tests break one rule at a time. */
function validLoad(): CreateLoadBody {
  return {
    loadType: 'FTL',
    equipmentType: 'curtain_trailer',
    stops: [
      { stopType: 1, cityId: 3, date: inHours(24), address: 'Al Sulay industrial area' },
      { stopType: 2, cityId: 18, date: inHours(48), address: 'Al Khumrah' },
    ],
    cargo: [{ goodsType: 'food_beverages', lengthCm: 120, widthCm: 100, heightCm: 150, quantity: 20, weightPerItemKg: 900 }],
    priceSar: '4200',
    comments: 'Forklift at pickup',
  };
}
const issues = (input: unknown) => {
  const r = createLoadBody.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};
const messages = (input: unknown) => issues(input).map((i) => i.message);

describe('createLoadBody (spec §5 shipment rules)', () => {
  it('accepts a valid load and applies defaults', () => {
    const r = createLoadBody.parse(validLoad());
    expect(r.post).toBe(true);
    expect(r.cargo[0]).toMatchObject({ stackable: false, adr: false });
  });

  it('needs at least one pickup and one drop', () => {
    const l = validLoad();
    l.stops = [l.stops[0], { ...l.stops[0], cityId: 5, date: inHours(30) }];
    expect(messages(l)).toContain('v.stopsDropRequired');
    const d = validLoad();
    d.stops = [{ ...d.stops[1], date: inHours(20) }, d.stops[1]];
    expect(messages(d)).toContain('v.stopsPickupRequired');
  });

  it('requires the last stop to be a destination and the first a pickup', () => {
    const l = validLoad();
    l.stops = [l.stops[0], l.stops[1], { stopType: 1, cityId: 6, date: inHours(60) }];
    expect(issues(l)).toContainEqual({ path: 'stops.2.stopType', message: 'v.stopsLastDrop' });
    const f = validLoad();
    f.stops = [{ stopType: 2, cityId: 6, date: inHours(20) }, ...f.stops];
    expect(messages(f)).toContain('v.stopsFirstPickup');
  });

  it('rejects a drop at the pickup address, and an address chosen twice', () => {
    const l = validLoad();
    l.stops[1] = { ...l.stops[1], cityId: 3, address: 'Al Sulay industrial area' };
    expect(issues(l)).toContainEqual({ path: 'stops.1.cityId', message: 'v.stopsPickupDropSame' });
    const d = validLoad();
    d.stops = [d.stops[0], d.stops[1], { ...d.stops[1], date: inHours(50) }];
    expect(messages(d)).toContain('v.stopsDuplicateAddress');
  });

  it('accepts two stops in the same city at different addresses', () => {
    const l = validLoad();
    l.stops[1] = { ...l.stops[1], cityId: 3, address: 'Second industrial city' };
    expect(messages(l)).toEqual([]);
  });

  it('rejects times in the past or within the 1-hour buffer, accepts just after it', () => {
    const l = validLoad();
    l.stops[0].date = inHours(0.5);
    expect(issues(l)).toContainEqual({ path: 'stops.0.date', message: 'v.timeInPast' });
    l.stops[0].date = inHours(-24);
    expect(messages(l)).toContain('v.timeInPast');
    l.stops[0].date = inHours(1.1);
    expect(messages(l)).toEqual([]);
  });

  it('rejects stops out of time order', () => {
    const l = validLoad();
    l.stops[1].date = inHours(12);
    expect(issues(l)).toContainEqual({ path: 'stops.1.date', message: 'v.stopsOrder' });
  });

  it('allows at most 10 cargo lines and needs at least one', () => {
    const l = validLoad();
    l.cargo = Array.from({ length: 11 }, () => ({ ...l.cargo[0] }));
    expect(messages(l)).toContain('v.cargoMax');
    l.cargo = l.cargo.slice(0, 10);
    expect(messages(l)).toEqual([]);
    l.cargo = [];
    expect(messages(l)).toContain('v.cargoRequired');
  });

  it.each(['lengthCm', 'widthCm', 'heightCm', 'quantity', 'weightPerItemKg'] as const)('cargo %s must be above 0', (field) => {
    const l = validLoad();
    l.cargo[0][field] = 0;
    expect(issues(l)).toContainEqual({ path: `cargo.0.${field}`, message: 'v.cargoPositive' });
    l.cargo[0][field] = -3;
    expect(messages(l)).toContain('v.cargoPositive');
  });

  it('weight per item has at most 10 digits', () => {
    const l = validLoad();
    l.cargo[0].weightPerItemKg = 9_999_999_999;
    expect(messages(l)).toEqual([]);
    l.cargo[0].weightPerItemKg = 10_000_000_000;
    expect(messages(l)).toContain('v.weightDigits');
  });

  it('quantity is a whole number', () => {
    const l = validLoad();
    l.cargo[0].quantity = 2.5;
    expect(messages(l)).toContain('v.quantityInteger');
  });

  it('comments are at most 140 characters', () => {
    const l = validLoad();
    l.comments = 'x'.repeat(140);
    expect(messages(l)).toEqual([]);
    l.comments = 'x'.repeat(141);
    expect(messages(l)).toContain('v.commentsMax');
  });

  it('price must be above 0', () => {
    const l = validLoad();
    l.priceSar = '0';
    expect(messages(l)).toContain('v.pricePositive');
    l.priceSar = '0.00';
    expect(messages(l)).toContain('v.pricePositive');
  });

  it('price is a decimal string exact to the halala, normalized to two decimals', () => {
    expect(createLoadBody.parse({ ...validLoad(), priceSar: '1500.5' }).priceSar).toBe('1500.50');
    expect(createLoadBody.parse({ ...validLoad(), priceSar: ' 9999999999.99 ' }).priceSar).toBe('9999999999.99');
    for (const bad of ['1500.555', '1e3', '-5', '10000000000', '12,5', 'abc', '01']) {
      expect(messages({ ...validLoad(), priceSar: bad }), bad).toContain('v.priceFormat');
    }
    // a JSON number is a float on the way in: refused, so no amount is rounded silently
    expect(messages({ ...validLoad(), priceSar: 4200 })).toContain('v.pricePositive');
  });

  it('rejects an unknown load type and a missing equipment type', () => {
    expect(issues({ ...validLoad(), loadType: 'XL' }).map((i) => i.path)).toContain('loadType');
    expect(messages({ ...validLoad(), equipmentType: '' })).toContain('v.equipmentRequired');
  });
});

describe('updateLoadBody', () => {
  it('accepts a price-only change and checks stops only when given', () => {
    expect(updateLoadBody.safeParse({ priceSar: '5000' }).success).toBe(true);
    const r = updateLoadBody.safeParse({ stops: [validLoad().stops[0]] });
    expect(r.success).toBe(false);
  });
});

describe('searchLoadsQuery (spec §9 radius options)', () => {
  it.each([10, 50, 100, 150, 200, 300, 500, 1000])('accepts radius %i km', (radius) => {
    expect(searchLoadsQuery.safeParse({ pickupCityId: '3', radius: String(radius) }).success).toBe(true);
  });
  it.each([0, 25, 400, 2000])('rejects radius %i km', (radius) => {
    const r = searchLoadsQuery.safeParse({ pickupCityId: '3', radius: String(radius) });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toBe('v.radiusOption');
  });
  it('rejects a pickup window that ends before it starts', () => {
    const r = searchLoadsQuery.safeParse({ pickupFrom: inHours(48), pickupTo: inHours(24) });
    expect(r.success).toBe(false);
  });
  it('defaults limit, skip and sort', () => {
    expect(searchLoadsQuery.parse({})).toMatchObject({ limit: 20, skip: 0, sort: 'newest' });
  });
});

describe('offerRespondBody', () => {
  const offerId = '0190a0b0-0000-7000-8000-000000000000';
  it('needs a price to counter', () => {
    expect(offerRespondBody.safeParse({ offerId, action: 'counter' }).success).toBe(false);
    expect(offerRespondBody.safeParse({ offerId, action: 'counter', priceSar: '3900' }).success).toBe(true);
    expect(offerRespondBody.safeParse({ offerId, action: 'accept' }).success).toBe(true);
  });
});
