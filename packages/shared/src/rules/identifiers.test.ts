import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isValidCr,
  isValidDriverId,
  isValidImei,
  isValidLicence,
  isValidMoi,
  isValidSequence,
  isValidTl,
  isValidTrailerNumber,
  isValidVat,
} from './identifiers.ts';

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const alnum = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'), minLength: min, maxLength: max });
const notAllZeros = (s: string) => !/^0+$/.test(s);

describe('IMEI (15 digits, not all zeros)', () => {
  it('examples', () => {
    expect(isValidImei('356938035643809')).toBe(true);
    for (const v of ['000000000000000', '35693803564380', '3569380356438090', '35693803564380a', ' 356938035643809']) expect(isValidImei(v)).toBe(false);
  });
  it('property: valid iff 15 digits and not all zeros', () => {
    fc.assert(fc.property(digits(0, 20), (s) => isValidImei(s) === (s.length === 15 && notAllZeros(s))));
  });
});

describe('driver ID / Iqama (10 digits starting 1 or 2)', () => {
  it('examples', () => {
    expect(isValidDriverId('1012345678')).toBe(true);
    expect(isValidDriverId('2412345678')).toBe(true);
    for (const v of ['3012345678', '0012345678', '101234567', '10123456789', '1O12345678']) expect(isValidDriverId(v)).toBe(false);
  });
  it('property: valid iff 10 digits and the first is 1 or 2', () => {
    fc.assert(fc.property(digits(0, 12), (s) => isValidDriverId(s) === (s.length === 10 && (s[0] === '1' || s[0] === '2'))));
  });
});

describe('CR (10 digits, not all zeros) and MOI (10 digits)', () => {
  it('examples', () => {
    expect(isValidCr('1010123456')).toBe(true);
    expect(isValidCr('0000000000')).toBe(false);
    expect(isValidCr('101012345')).toBe(false);
    expect(isValidMoi('7001234567')).toBe(true);
    expect(isValidMoi('700123456X')).toBe(false);
  });
  it('property', () => {
    fc.assert(fc.property(digits(0, 12), (s) => isValidCr(s) === (s.length === 10 && notAllZeros(s)) && isValidMoi(s) === (s.length === 10 && notAllZeros(s))));
  });
});

describe('VAT (15 digits starting with 3)', () => {
  it('examples', () => {
    expect(isValidVat('300123456700003')).toBe(true);
    for (const v of ['200123456700003', '30012345670000', '3001234567000031', '30012345670000A']) expect(isValidVat(v)).toBe(false);
  });
  it('property', () => {
    fc.assert(fc.property(digits(13, 17), (s) => isValidVat(s) === (s.length === 15 && s[0] === '3')));
  });
});

describe('TL (8–15 letters or digits, no spaces or symbols)', () => {
  it('examples', () => {
    expect(isValidTl('TL123456')).toBe(true);
    expect(isValidTl('123456789012345')).toBe(true);
    for (const v of ['TL12345', 'TL 123456', 'TL-123456', '1234567890123456', 'تل123456']) expect(isValidTl(v)).toBe(false);
  });
  it('property: any 8–15 alphanumerics pass, any symbol fails', () => {
    fc.assert(fc.property(alnum(8, 15), (s) => isValidTl(s)));
    fc.assert(fc.property(alnum(4, 7), fc.constantFrom(' ', '-', '_', '/', '.', '#'), alnum(4, 7), (a, sym, b) => !isValidTl(a + sym + b)));
  });
});

describe('licence (8–12 digits), sequence (4–9 alphanumerics), trailer number (6–10, hyphens)', () => {
  it('examples', () => {
    expect(isValidLicence('12345678')).toBe(true);
    expect(isValidLicence('00000000')).toBe(false);
    expect(isValidLicence('1234567')).toBe(false);
    expect(isValidSequence('A123')).toBe(true);
    expect(isValidSequence('0000')).toBe(false);
    expect(isValidSequence('1234567890')).toBe(false);
    expect(isValidTrailerNumber('TR-12345')).toBe(true);
    expect(isValidTrailerNumber('------')).toBe(false);
    expect(isValidTrailerNumber('000-000')).toBe(false);
    expect(isValidTrailerNumber('TR 1234')).toBe(false);
    expect(isValidTrailerNumber('TR-12345678')).toBe(false);
  });
  it('properties', () => {
    fc.assert(fc.property(digits(0, 14), (s) => isValidLicence(s) === (s.length >= 8 && s.length <= 12 && notAllZeros(s))));
    fc.assert(fc.property(alnum(0, 11), (s) => isValidSequence(s) === (s.length >= 4 && s.length <= 9 && notAllZeros(s))));
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'AB019-'), minLength: 0, maxLength: 12 }),
        (s) => isValidTrailerNumber(s) === (s.length >= 6 && s.length <= 10 && /[A-Za-z1-9]/.test(s)),
      ),
    );
  });
});
