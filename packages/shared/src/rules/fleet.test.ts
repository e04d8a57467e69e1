import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { driverInput, trailerInput, vehicleInput } from '../schemas/fleet.ts';
import { ageOn, initialWaslStatus, isAdult, isValidTrailerBreadth, isValidTrailerCapacity, isValidTrailerLength, isValidVehicleWeight } from './fleet.ts';

const vehicle = {
  vehicleType: 'flatbed_trailer',
  year: 2022,
  make: 'Volvo',
  model: 'FH',
  colour: 'White',
  plateType: 3,
  plate: { digits: '1234', left: 'ا', middle: 'ب', right: 'د' },
  sequenceNumber: '123456',
  weightKg: 20000,
};

describe('vehicle rules (spec §5)', () => {
  it('weight above 0 and at most 45 t', () => {
    expect(isValidVehicleWeight(45_000)).toBe(true);
    expect(isValidVehicleWeight(0.5)).toBe(true);
    for (const w of [0, -1, 45_000.01, NaN, Infinity]) expect(isValidVehicleWeight(w)).toBe(false);
    fc.assert(fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (w) => isValidVehicleWeight(w) === (w > 0 && w <= 45_000)));
  });
  it('WASL not required under 3.5 t', () => {
    expect(initialWaslStatus(3499)).toBe('not_required');
    expect(initialWaslStatus(3500)).toBe('not_submitted');
  });
  it('the schema requires type, year, make, model, colour, plate type, plate and sequence', () => {
    expect(vehicleInput.safeParse(vehicle).success).toBe(true);
    const r = vehicleInput.safeParse({});
    expect(r.error!.issues.map((i) => i.path[0]).sort()).toEqual([
      'colour',
      'make',
      'model',
      'plate',
      'plateType',
      'sequenceNumber',
      'vehicleType',
      'weightKg',
      'year',
    ]);
    expect(vehicleInput.safeParse({ ...vehicle, imei: '12345' }).error!.issues[0].message).toBe('v.imei');
    expect(vehicleInput.safeParse({ ...vehicle, source: 'vendor' }).error!.issues[0]).toMatchObject({ path: ['vendorId'], message: 'v.vendorRequired' });
    expect(vehicleInput.safeParse({ ...vehicle, plateType: 12 }).error!.issues[0].message).toBe('v.plateType');
  });
});

describe('trailer rules (spec §5)', () => {
  it('ranges: length 500–2000 cm, breadth 200–500 cm, capacity 1,000–50,000 kg', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 3000 }), (n) => isValidTrailerLength(n) === (n >= 500 && n <= 2000)));
    fc.assert(fc.property(fc.integer({ min: 0, max: 1000 }), (n) => isValidTrailerBreadth(n) === (n >= 200 && n <= 500)));
    fc.assert(fc.property(fc.integer({ min: 0, max: 60_000 }), (n) => isValidTrailerCapacity(n) === (n >= 1000 && n <= 50_000)));
  });
  it('the schema: type and number required, numbers upper-cased, ranges with keyed messages', () => {
    const ok = trailerInput.parse({ trailerType: 'flatbed', trailerNumber: 'ab-12345', lengthCm: 1360, breadthCm: 250, capacityKg: 30000 });
    expect(ok.trailerNumber).toBe('AB-12345');
    // trailer types are codes (issue 23): forgiving of case and the _trailer suffix, nothing else
    expect(ok.trailerType).toBe('flatbed_trailer');
    expect(trailerInput.parse({ ...ok, trailerType: 'Reefer Trailer' }).trailerType).toBe('reefer_trailer');
    expect(trailerInput.parse({ ...ok, trailerType: 'container_40' }).trailerType).toBe('container_40');
    expect(trailerInput.safeParse({ ...ok, trailerType: 'سطحة' }).error?.issues[0].message).toBe('v.trailerType');
    const r = trailerInput.safeParse({ trailerType: '', trailerNumber: 'ab', lengthCm: 2001, breadthCm: 199, capacityKg: 999 });
    expect(r.error!.issues.map((i) => i.message).sort()).toEqual([
      'v.trailerBreadth',
      'v.trailerCapacity',
      'v.trailerLength',
      'v.trailerNumber',
      'v.trailerType',
    ]);
  });
});

describe('driver rules (spec §5)', () => {
  const now = new Date('2026-11-22T00:00:00Z');
  it('age counts whole years; 18 on the birthday', () => {
    expect(ageOn('2008-11-22', now)).toBe(18);
    expect(ageOn('2008-11-23', now)).toBe(17);
    expect(isAdult('2008-11-22', now)).toBe(true);
    expect(isAdult('2008-11-23', now)).toBe(false);
    expect(Number.isNaN(ageOn('2001-02-30', now))).toBe(true);
  });
  it('property: adult iff born at least 18 years before', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1930, max: 2026 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), (y, m, d) => {
        const dob = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        const eighteenth = new Date(Date.UTC(y + 18, m - 1, d));
        return isAdult(dob, now) === eighteenth.getTime() <= now.getTime();
      }),
    );
  });
  it('the schema: manager phone differs, nationality from the list, Iqama count 1–100', () => {
    const base = {
      salutation: 'mr',
      firstName: 'A',
      lastName: 'B',
      nationality: 'Pakistani',
      dateOfBirth: '1990-01-01',
      phone: '0551234567',
      licenceNumber: '12345678',
      driverIdNumber: '2123456789',
    };
    expect(driverInput.parse(base).nationality).toBe('pakistani');
    expect(driverInput.safeParse({ ...base, managerPhone: '+966551234567' }).error!.issues[0]).toMatchObject({
      path: ['managerPhone'],
      message: 'v.managerPhoneSame',
    });
    expect(driverInput.safeParse({ ...base, iqamaIssueCount: 101 }).error!.issues[0].message).toBe('v.iqamaCount');
    expect(driverInput.safeParse({ ...base, moiNumber: '0000000000' }).error!.issues[0].message).toBe('v.moiNumber');
    expect(driverInput.safeParse({ ...base, nationality: 'klingon' }).error!.issues[0].message).toBe('v.nationality');
  });
});
