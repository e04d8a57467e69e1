import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHijriDate } from '@masar/shared';
import { createHttpWasl } from './http.ts';
import { createSandboxWasl } from './sandbox.ts';
import { WaslUnavailableError } from './wasl.ts';

const vehicle = { sequenceNumber: '1234567', plateType: 3, vehiclePlate: { number: '4567', rightLetter: 'د', middleLetter: 'ب', leftLetter: 'ا' } };
const driver = { identityNumber: '1012345678', dateOfBirthGregorian: '1988-04-12', dateOfBirthHijri: '1408-08-25', mobileNumber: '+966551234567' };

describe('WASL sandbox', () => {
  it('verifies valid registrations and explains refusals', async () => {
    const w = createSandboxWasl();
    expect(await w.registerVehicle(vehicle)).toMatchObject({ status: 'verified', reasons: [], referenceKey: expect.stringMatching(/^WSL-/) });
    expect(await w.registerVehicle({ ...vehicle, sequenceNumber: '1234000' })).toEqual({
      status: 'not_verified',
      reasons: ['VEHICLE_NOT_FOUND'],
      referenceKey: null,
    });
    expect((await w.registerVehicle({ ...vehicle, vehiclePlate: { ...vehicle.vehiclePlate, leftLetter: 'ج' } })).reasons).toEqual(['INVALID_PLATE']);
    expect(await w.registerDriver(driver)).toMatchObject({ status: 'verified' });
    expect((await w.registerDriver({ ...driver, identityNumber: '1012345000' })).reasons).toEqual(['DRIVER_NOT_FOUND']);
    expect((await w.registerDriver({ ...driver, dateOfBirthGregorian: '2020-01-01', mobileNumber: '0551234567' })).reasons).toEqual([
      'DRIVER_UNDERAGE',
      'INVALID_MOBILE',
    ]);
    w.control.fail = true;
    await expect(w.registerDriver(driver)).rejects.toBeInstanceOf(WaslUnavailableError);
  });
  it('converts dates of birth to Umm al-Qura', () => {
    expect(toHijriDate('1988-04-12')).toBe('1408-08-25');
    expect(toHijriDate('2026-11-23')).toMatch(/^1448-0[56]-\d{2}$/);
    expect(toHijriDate('1988-02-30')).toBeNull();
  });
});

const seen: { url: string; headers: Record<string, unknown>; body: Record<string, unknown> }[] = [];
const server = createServer((req, res) => {
  let s = '';
  req.on('data', (c: Buffer) => (s += c.toString()));
  req.on('end', () => {
    const body = JSON.parse(s) as Record<string, unknown>;
    seen.push({ url: req.url!, headers: req.headers, body });
    const send = (status: number, json: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    if (req.url === '/api/v1/vehicles') return send(200, { success: true, resultCode: 'success', result: { referenceKey: 'ref-v', isValid: true } });
    if (body.identityNumber === '1012345000') return send(400, { success: false, resultCode: 'DRIVER_NOT_FOUND' });
    if (body.identityNumber === '1999999999') return send(502, {});
    send(200, { success: true, result: { isValid: false, rejectionReasons: ['LICENSE_EXPIRED'] } });
  });
});
let http: ReturnType<typeof createHttpWasl>;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  http = createHttpWasl({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, appId: 'a1', appKey: 'k1' });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('WASL HTTP adapter', () => {
  it('registers with the app id and key and reads verified / not verified / unavailable', async () => {
    expect(await http.registerVehicle(vehicle)).toEqual({ status: 'verified', reasons: [], referenceKey: 'ref-v' });
    expect(seen[0]).toMatchObject({ url: '/api/v1/vehicles', headers: { 'app-id': 'a1', 'app-key': 'k1' }, body: { sequenceNumber: '1234567', plateType: 3 } });
    expect(await http.registerDriver(driver)).toEqual({ status: 'not_verified', reasons: ['LICENSE_EXPIRED'], referenceKey: null });
    expect(seen[1].body).toMatchObject({ dateOfBirthHijri: '1408-08-25', dateOfBirthGregorian: '1988-04-12' });
    expect(await http.registerDriver({ ...driver, identityNumber: '1012345000' })).toEqual({
      status: 'not_verified',
      reasons: ['DRIVER_NOT_FOUND'],
      referenceKey: null,
    });
    await expect(http.registerDriver({ ...driver, identityNumber: '1999999999' })).rejects.toBeInstanceOf(WaslUnavailableError);
  });
});
