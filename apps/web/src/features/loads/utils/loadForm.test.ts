import { describe, expect, it } from 'vitest';
import { createLoadBody, type Load } from '@masar/shared';
import { isoToPicker } from '../../../components/format';
import { ApiError } from '../../../lib/api';
import { apiFieldErrors, fieldErrors } from '../../../lib/form';
import { emptyCargo, emptyLoadForm, formToBody, loadToForm, type LoadFormValues } from './loadForm';

const inDays = (d: number) => isoToPicker(new Date(Date.now() + d * 86_400_000).toISOString());

function validForm(): LoadFormValues {
  const v = emptyLoadForm();
  v.equipmentType = 'reefer_truck';
  v.stops[0] = { ...v.stops[0], cityId: 3, date: inDays(2), address: 'Second Industrial City' };
  v.stops[1] = { ...v.stops[1], cityId: 18, date: inDays(4) };
  v.cargo[0] = { ...v.cargo[0], goodsType: 'dates', lengthCm: 120, widthCm: 100, heightCm: 150, quantity: 10, weightPerItemKg: 500 };
  v.priceSar = 4200;
  return v;
}

const errorsOf = (v: LoadFormValues, lang = 'en') => {
  const r = createLoadBody.safeParse(formToBody(v, true));
  return r.success ? {} : fieldErrors(r.error.issues, lang);
};

describe('post-load form ↔ shared createLoadBody', () => {
  it('a complete form gives a body the shared schema accepts', () => {
    const body = formToBody(validForm(), false);
    const r = createLoadBody.safeParse(body);
    expect(r.success).toBe(true);
    expect(body.post).toBe(false);
    expect(body.stops[0].date).toMatch(/\+03:00$/);
    expect(body.stops[1]).not.toHaveProperty('address');
    expect(body).not.toHaveProperty('comments');
  });
  it('the region the form fills from the city is no national address on its own (issue 23)', () => {
    const v = validForm();
    v.stops[0].details = { ...v.stops[0].details, region: 'Riyadh Region' };
    const body = formToBody(v, true);
    expect(body.stops[0]).not.toHaveProperty('addressDetails');
    expect(createLoadBody.safeParse(body).success).toBe(true);
    // with any other field the address counts, and the shared schema asks for the rest
    v.stops[0].details = { ...v.stops[0].details, streetName: 'King Fahd Rd' };
    expect(errorsOf(v)).toHaveProperty(['stops.0.addressDetails.buildingNumber']);
  });

  it('an empty form names every missing field by its path', () => {
    const e = errorsOf(emptyLoadForm());
    expect(e.equipmentType).toBe('Choose an equipment type.');
    expect(e['stops.0.cityId']).toBe('Enter a valid city.');
    expect(e['stops.1.date']).toBe('Enter a valid date and time.');
    expect(e['cargo.0.goodsType']).toBe('Choose a goods type.');
    expect(e['cargo.0.lengthCm']).toBe('Cargo dimensions, quantity and weight must be above 0.');
    expect(e.priceSar).toBe('Price must be above 0 SAR.');
  });
  it('messages follow the language (Arabic)', () => {
    const e = errorsOf(emptyLoadForm(), 'ar');
    expect(e['stops.0.cityId']).toBe('أدخل مدينة صحيحة.');
    expect(e.priceSar).toBe('يجب أن يكون السعر أكبر من ٠ ريال.');
  });
  it('spec §5 stop rules: same pickup and drop, past time, order', () => {
    const same = validForm();
    same.stops[1] = { ...same.stops[1], cityId: 3, address: 'Second Industrial City' };
    expect(errorsOf(same)['stops.1.cityId']).toBe('Pickup and drop addresses must differ.');
    const past = validForm();
    past.stops[0] = { ...past.stops[0], date: inDays(-1) };
    expect(errorsOf(past)['stops.0.date']).toMatch(/past/);
    const order = validForm();
    order.stops[1] = { ...order.stops[1], date: inDays(1) };
    expect(errorsOf(order)['stops.1.date']).toBe('Each stop must be on or after the previous one.');
    const noDrop = validForm();
    noDrop.stops[1] = { ...noDrop.stops[1], stopType: 1 };
    expect(errorsOf(noDrop).stops).toBe('Add at least one drop.');
  });
  it('spec §5 cargo and comment limits', () => {
    const v = validForm();
    v.cargo = Array.from({ length: 11 }, () => ({ ...validForm().cargo[0], key: emptyCargo().key }));
    expect(errorsOf(v).cargo).toBe('At most 10 cargo lines.');
    const w = validForm();
    w.cargo[0] = { ...w.cargo[0], weightPerItemKg: 12_345_678_901, quantity: 0 };
    expect(errorsOf(w)['cargo.0.weightPerItemKg']).toBe('Weight per item can have at most 10 digits.');
    expect(errorsOf(w)['cargo.0.quantity']).toBe('Cargo dimensions, quantity and weight must be above 0.');
    const c = validForm();
    c.comments = 'x'.repeat(141);
    expect(errorsOf(c).comments).toBe('Comments can have at most 140 characters.');
  });
  it('maps server field errors onto the same paths', () => {
    expect(
      apiFieldErrors(
        new ApiError(400, 'VALIDATION_FAILED', 'Check the fields', [
          { path: 'stops.0.cityId', message: 'v.cityInvalid' },
          { path: 'body.cargo[1].lengthCm', message: 'Too long' },
        ]),
        {},
        'en',
      ),
    ).toEqual({
      'stops.0.cityId': 'Enter a valid city.',
      'cargo.1.lengthCm': 'Too long',
    });
  });
  it('an edited load fills the form back (times as Riyadh wall-clock)', () => {
    const load = {
      loadType: 'LTL',
      equipmentType: 'lorry',
      priceSar: '3000.00',
      comments: null,
      stops: [
        { stopType: 1, cityId: 3, date: '2026-12-01T05:00:00.000Z', address: 'A' },
        { stopType: 2, cityId: 18, date: '2026-12-02T05:00:00.000Z', address: null },
      ],
      cargo: [{ goodsType: 'dates', lengthCm: 1, widthCm: 2, heightCm: 3, quantity: 4, weightPerItemKg: 5, stackable: true, adr: false }],
    } as unknown as Load;
    const v = loadToForm(load);
    expect(v.stops.map((s) => [s.stopType, s.cityId, s.date, s.address])).toEqual([
      [1, 3, '2026-12-01 08:00:00', 'A'],
      [2, 18, '2026-12-02 08:00:00', ''],
    ]);
    expect(v.comments).toBe('');
    expect(v.cargo[0]).toMatchObject({ goodsType: 'dates', quantity: 4, stackable: true });
  });
});
