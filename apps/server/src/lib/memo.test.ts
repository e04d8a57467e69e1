import { describe, expect, it } from 'vitest';
import { areaWindowKey, ttlMemo } from './memo.ts';

describe('ttlMemo (the in/out logs’ area figures)', () => {
  it('loads once for concurrent calls, keeps the value for its time to live, then loads again', async () => {
    const memo = ttlMemo(10, 2_000);
    let loads = 0;
    const load = () => new Promise<number>((r) => setTimeout(() => r(++loads), 5));
    expect(await Promise.all([memo('a', load), memo('a', load)])).toEqual([1, 1]);
    expect(await memo('a', load)).toBe(1);
    await new Promise((r) => setTimeout(r, 2_200));
    expect(await memo('a', load)).toBe(2);
  });

  it('reads fresh on request and keeps the fresh value; forgets a failed load', async () => {
    const memo = ttlMemo(10, 60_000);
    let n = 0;
    expect(await memo('k', async () => ++n)).toBe(1);
    expect(await memo('k', async () => ++n, true)).toBe(2);
    expect(await memo('k', async () => ++n)).toBe(2);
    await expect(memo('bad', () => Promise.reject(new Error('database away')))).rejects.toThrow('database away');
    expect(await memo('bad', async () => 7)).toBe(7);
  });

  it('keys an area by city, radius and window to the minute', () => {
    const from = new Date('2026-11-27T10:00:05Z');
    const to = new Date('2026-12-04T10:00:05Z');
    expect(areaWindowKey({ cityId: 3, radius: 100, from, to })).toBe(areaWindowKey({ cityId: 3, radius: 100, from: new Date('2026-11-27T10:00:55Z'), to }));
    expect(areaWindowKey({ cityId: 3, radius: 100, from, to })).not.toBe(areaWindowKey({ cityId: 3, radius: 50, from, to }));
    expect(areaWindowKey({ cityId: 3, from, to })).not.toBe(areaWindowKey({ cityId: 3, from: new Date('2026-11-27T10:01:00Z'), to }));
  });
});
