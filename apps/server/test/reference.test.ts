import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('GET /api/v1/cities', () => {
  it('finds Riyadh by its Arabic name, with coordinates', async () => {
    const res = await t.app.inject({ url: `/api/v1/cities?search=${encodeURIComponent('الرياض')}&limit=5` });
    expect(res.statusCode).toBe(200);
    const first = res.json().data.items[0];
    expect(first).toMatchObject({ id: 3, nameEn: 'Riyadh', nameAr: 'الرياض', regionId: 1 });
    expect(first.lat).toBeCloseTo(24.7, 1);
  });

  it('finds Jeddah by an English prefix, hubs first', async () => {
    const res = await t.app.inject({ url: '/api/v1/cities?search=jed&limit=5' });
    expect(res.json().data.items[0].nameEn).toBe('Jeddah');
  });

  it('answers a bad limit with a localized validation error', async () => {
    const res = await t.app.inject({ url: '/api/v1/cities?limit=0', headers: { language: 'ar' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'limit' }] });
    expect(res.json().message).toMatch(/[\u0600-\u06FF]/);
  });
});
