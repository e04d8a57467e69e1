import { describe, expect, it } from 'vitest';
import { changeAudienceBody, createLoadBody, extendDatesBody, searchLoadsQuery, stopAddressInput, type CreateLoadBody } from './loads.ts';
import { VALIDATION_MESSAGES } from '../messages.ts';

// One clock for the whole file: a pickup window "at" the first pickup must not drift a millisecond past it.
const NOW = Date.now();
const inHours = (h: number) => new Date(NOW + h * 3_600_000).toISOString();

function validLoad(over: Partial<CreateLoadBody> = {}): CreateLoadBody {
  return {
    loadType: 'FTL',
    equipmentType: 'curtain_trailer',
    stops: [
      { stopType: 1, cityId: 3, date: inHours(24) },
      { stopType: 2, cityId: 18, date: inHours(72) },
    ],
    cargo: [{ goodsType: 'food_beverages', lengthCm: 120, widthCm: 100, heightCm: 150, quantity: 20, weightPerItemKg: 900 }],
    priceSar: '4200',
    ...over,
  };
}
const issues = (input: unknown) => {
  const r = createLoadBody.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};
const address = { buildingNumber: '2345', streetName: 'King Fahd Rd', district: 'Al Olaya', region: 'Riyadh', zipCode: '12211' };

describe('post form terms (spec §2, §3, §5; issue 7)', () => {
  it('accepts a complete form and defaults to the marketplace', () => {
    const r = createLoadBody.parse(
      validLoad({
        pickupLatest: inHours(30),
        pickupHours: { from: '08:00', to: '17:00' },
        dropHours: { from: '06:30', to: '22:00' },
        paymentMethod: 'credit',
        paidBy: 'sender',
        paymentTermsDays: 60,
        detentionFreeHours: 2,
        detentionRateSar: '50',
        deliveryType: 'door_to_door',
        deliveryTo: 'Site office',
        tradable: true,
      }),
    );
    expect(r.shipmentType).toBe(1);
    expect(r.detentionRateSar).toBe('50.00');
  });

  it('keeps the pickup window between the earliest pickup and the delivery', () => {
    expect(issues(validLoad({ pickupLatest: inHours(23) }))).toContainEqual({ path: 'pickupLatest', message: 'v.pickupWindow' });
    expect(issues(validLoad({ pickupLatest: inHours(73) }))).toContainEqual({ path: 'pickupLatest', message: 'v.pickupWindowDrop' });
    expect(issues(validLoad({ pickupLatest: inHours(24) }))).toEqual([]);
  });

  it('needs hours as HH:MM, closing after opening', () => {
    expect(issues(validLoad({ pickupHours: { from: '17:00', to: '08:00' } }))).toContainEqual({ path: 'pickupHours.to', message: 'v.hoursOrder' });
    const bad = issues(validLoad({ dropHours: { from: '8am', to: '24:00' } }));
    expect(bad).toContainEqual({ path: 'dropHours.from', message: 'v.hoursInvalid' });
    expect(bad).toContainEqual({ path: 'dropHours.to', message: 'v.hoursInvalid' });
  });

  it('bounds payment terms and detention, and takes money as a decimal string', () => {
    expect(issues(validLoad({ paymentTermsDays: 181 }))).toContainEqual({ path: 'paymentTermsDays', message: 'v.paymentTermsDays' });
    expect(issues(validLoad({ detentionFreeHours: 73 }))).toContainEqual({ path: 'detentionFreeHours', message: 'v.detentionHours' });
    expect(issues(validLoad({ detentionRateSar: 50 as unknown as string })).map((i) => i.path)).toContain('detentionRateSar');
    expect(issues(validLoad({ paymentMethod: 'cheque' as never })).map((i) => i.message)).toContain('v.paymentMethod');
  });

  it('checks the structured address: digits, required fields, no zero-like placeholders', () => {
    expect(stopAddressInput.safeParse(address).success).toBe(true);
    const bad = (over: Record<string, string>) => stopAddressInput.safeParse({ ...address, ...over }).error?.issues.map((i) => i.message) ?? [];
    expect(bad({ buildingNumber: '234' })).toEqual(['v.buildingNumber']);
    expect(bad({ buildingNumber: '0000' })).toEqual(['v.buildingNumber']);
    expect(bad({ zipCode: '1221a' })).toEqual(['v.zipCode']);
    expect(bad({ additionalNumber: '12' })).toEqual(['v.additionalNumber']);
    for (const z of ['0', '00', '0.0', '0.', '.', '  ']) expect(bad({ streetName: z })).toEqual(['v.addressRequired']);
    expect(bad({ district: '' })).toEqual(['v.addressRequired']);
    const load = validLoad();
    load.stops[0] = { ...load.stops[0], addressDetails: { ...address, region: '0' } };
    expect(issues(load)).toContainEqual({ path: 'stops.0.addressDetails.region', message: 'v.addressRequired' });
  });

  it('a vendor shipment needs at least one vendor, each once', () => {
    expect(issues(validLoad({ shipmentType: 2 }))).toContainEqual({ path: 'vendorIds', message: 'v.vendorsRequired' });
    expect(issues(validLoad({ shipmentType: 2, vendorIds: [] }))).toContainEqual({ path: 'vendorIds', message: 'v.vendorsRequired' });
    const id = '01900000-0000-7000-8000-000000000001';
    expect(issues(validLoad({ shipmentType: 2, vendorIds: [id] }))).toEqual([]);
    expect(issues(validLoad({ shipmentType: 2, vendorIds: [id, id] }))).toContainEqual({ path: 'vendorIds', message: 'v.vendorsDuplicate' });
    expect(changeAudienceBody.safeParse({ shipmentType: 2 }).success).toBe(false);
    expect(changeAudienceBody.safeParse({ shipmentType: 1 }).success).toBe(true);
  });

  it('an own-vehicle shipment needs its pickup and delivery dates', () => {
    const l = validLoad({ shipmentType: 3 });
    expect(issues(l)).toEqual([]);
    const noDate = { ...l, stops: [{ stopType: 1, cityId: 3 }, l.stops[1]] };
    expect(issues(noDate).map((i) => i.path)).toContain('stops.0.date');
  });

  it('extend dates needs a date, pickup before delivery', () => {
    expect(extendDatesBody.safeParse({}).error?.issues[0].message).toBe('v.extendNothing');
    expect(extendDatesBody.safeParse({ pickupDate: inHours(50), deliveryDate: inHours(40) }).error?.issues[0].message).toBe('v.stopsOrder');
    expect(extendDatesBody.safeParse({ deliveryDate: inHours(40) }).success).toBe(true);
  });

  it("the pickup search radius takes the spec's 150 km; other radii stay the options", () => {
    expect(searchLoadsQuery.safeParse({ pickupCityId: '3', radius: '150' }).success).toBe(true);
    expect(searchLoadsQuery.safeParse({ pickupCityId: '3', radius: '400' }).success).toBe(false);
    expect(searchLoadsQuery.safeParse({ dropCityId: '3', dropRadius: '150' }).success).toBe(false);
  });

  it('every new message has English and Arabic', () => {
    for (const k of ['v.pickupWindow', 'v.hoursOrder', 'v.addressRequired', 'v.vendorsRequired', 'v.extendNothing', 'v.paymentTermsDays'] as const) {
      expect(VALIDATION_MESSAGES[k].en.length).toBeGreaterThan(0);
      expect(VALIDATION_MESSAGES[k].ar).toMatch(/[\u0600-\u06FF]/);
    }
  });
});
