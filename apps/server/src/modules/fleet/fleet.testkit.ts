import type { DriverInput, TrailerInput, VehicleInput } from '@masar/shared';

let seq = 0;
const next = () => {
  seq += 1;
  return seq;
};
const LETTERS = ['ا', 'ب', 'ح', 'د', 'ر', 'س', 'ص', 'ط', 'ع', 'ق', 'ك', 'ل', 'م', 'ن', 'ه', 'و', 'ى'];

/** A valid vehicle body with a plate unique within this test process. */
export function vehicleBody(over: Partial<VehicleInput> = {}): VehicleInput {
  const n = next() + Math.floor(Math.random() * 1000) * 17;
  const digits = String(1000 + (n % 9000));
  const l = (k: number) => LETTERS[Math.floor(n / 9000 ** 0) % 17 === k ? (k + 1) % 17 : (n + k * 7) % 17];
  return {
    vehicleType: 'flatbed_trailer',
    year: 2021,
    make: 'Volvo',
    model: 'FH16',
    colour: 'White',
    plateType: 3,
    plate: { digits, left: l(0), middle: l(1), right: l(2) },
    sequenceNumber: `${100000 + n}`,
    imei: `35${String(1e12 + n).padStart(13, '0')}`,
    weightKg: 26000,
    ...over,
  };
}

export function trailerBody(over: Partial<TrailerInput> = {}): TrailerInput {
  return {
    trailerType: 'flatbed_trailer',
    trailerNumber: `TR-${String(100000 + next()).slice(-6)}`,
    lengthCm: 1360,
    breadthCm: 250,
    capacityKg: 30000,
    supportedVehicleTypes: ['flatbed_trailer'],
    ...over,
  };
}

export function driverBody(over: Partial<DriverInput> = {}): DriverInput {
  const n = next();
  return {
    salutation: 'mr',
    firstName: 'Fahad',
    lastName: `Driver${n}`,
    nationality: 'saudi',
    dateOfBirth: '1988-04-12',
    phone: `+9665${String(40000000 + n * 13 + Math.floor(Math.random() * 1000) * 10000).slice(-8)}`,
    licenceNumber: `${10000000 + n}`,
    driverIdNumber: `1${String(100000000 + n * 7 + Math.floor(Math.random() * 1000) * 100000).slice(-9)}`,
    ...over,
  };
}
