import { createHash } from 'node:crypto';
import { isValidDriverId, isValidPlateDigits, isValidSequence, PLATE_LETTER_VALUES, PLATE_TYPE_IDS } from '@masar/shared';
import { WaslUnavailableError, type WaslDriverInput, type WaslGateway, type WaslResult, type WaslVehicleInput } from './wasl.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ref = (s: string) => `WSL-${createHash('sha256').update(s).digest('hex').slice(0, 10).toUpperCase()}`;

/**
 * The sandbox WASL (WASL_GATEWAY=sandbox, the default). Deterministic, so any instance answers
 * the same: it checks the formats WASL checks, and "does not find" (not verified):
 * - a vehicle whose sequence number ends in `000` (VEHICLE_NOT_FOUND) or whose plate number is
 *   `9999` (PLATE_MISMATCH);
 * - a driver whose identity number ends in `000` (DRIVER_NOT_FOUND) or who is under 18 on the
 *   Gregorian date given (DRIVER_UNDERAGE).
 * Everything else is verified. `control.fail` answers "unavailable" (tests, demos).
 */
export function createSandboxWasl(opts: { fail?: boolean } = {}): WaslGateway & { control: { fail: boolean } } {
  const control = { fail: opts.fail ?? false };
  const verdict = (reasons: string[], key: string): WaslResult =>
    reasons.length ? { status: 'not_verified', reasons, referenceKey: null } : { status: 'verified', reasons: [], referenceKey: ref(key) };
  return {
    name: 'sandbox',
    control,
    async registerVehicle(v: WaslVehicleInput) {
      if (control.fail) throw new WaslUnavailableError('WASL sandbox: unavailable');
      const reasons: string[] = [];
      if (!isValidSequence(v.sequenceNumber)) reasons.push('INVALID_SEQUENCE_NUMBER');
      else if (v.sequenceNumber.endsWith('000')) reasons.push('VEHICLE_NOT_FOUND');
      if (!PLATE_TYPE_IDS.includes(v.plateType)) reasons.push('INVALID_PLATE_TYPE');
      const p = v.vehiclePlate;
      if (!isValidPlateDigits(p.number) || [p.rightLetter, p.middleLetter, p.leftLetter].some((l) => !PLATE_LETTER_VALUES.includes(l)))
        reasons.push('INVALID_PLATE');
      else if (p.number === '9999') reasons.push('PLATE_MISMATCH');
      return verdict(reasons, `v:${v.sequenceNumber}`);
    },
    async registerDriver(d: WaslDriverInput) {
      if (control.fail) throw new WaslUnavailableError('WASL sandbox: unavailable');
      const reasons: string[] = [];
      if (!isValidDriverId(d.identityNumber)) reasons.push('INVALID_IDENTITY_NUMBER');
      else if (d.identityNumber.endsWith('000')) reasons.push('DRIVER_NOT_FOUND');
      if (!DATE.test(d.dateOfBirthHijri)) reasons.push('INVALID_DATE_OF_BIRTH_HIJRI');
      if (!DATE.test(d.dateOfBirthGregorian)) reasons.push('INVALID_DATE_OF_BIRTH');
      else {
        const dob = new Date(`${d.dateOfBirthGregorian}T00:00:00Z`);
        const adult = new Date(Date.UTC(dob.getUTCFullYear() + 18, dob.getUTCMonth(), dob.getUTCDate()));
        if (adult.getTime() > Date.now()) reasons.push('DRIVER_UNDERAGE');
      }
      if (!/^\+9665\d{8}$/.test(d.mobileNumber)) reasons.push('INVALID_MOBILE');
      return verdict(reasons, `d:${d.identityNumber}`);
    },
  };
}
