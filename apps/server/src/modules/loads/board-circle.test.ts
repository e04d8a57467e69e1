import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { citiesAround, queryRows } from '../../lib/sql.ts';
import { CITY } from './loads.testkit.ts';
import { circleCache, circleOf, placesInCircle } from './board.repository.ts';

// Issue 24: a board statement takes its pickup circle as the places' ids and distances (one array
// parameter each), read once per city and radius and remembered within a bound, instead of finding
// the circle itself twice (the page and the capped count) on every search.

let t: TestContext;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** The circle as PostgreSQL computes it (citiesAround), nearest first, ties by id. */
const sqlCircle = (cityId: number, radiusKm: number) =>
  queryRows<{ id: number; dist_m: number }>(t.database.db, sql`select pc.id, pc.dist_m from ${citiesAround(cityId, radiusKm)} pc order by pc.dist_m, pc.id`);
const parse = (literal: string) => (literal === '{}' ? [] : literal.slice(1, -1).split(',').map(Number));

describe('the board circle (circleOf)', () => {
  it('holds the places of the radius nearest first with their exact distances, and is remembered', async () => {
    for (const [city, radius] of [
      [CITY.riyadh, 200],
      [CITY.jeddah, 50],
      [CITY.dammam, 500],
    ] as const) {
      const expected = await sqlCircle(city, radius);
      expect(expected.length).toBeGreaterThan(1);
      const c = await circleOf(t.database.db, city, radius);
      expect(c.n).toBe(expected.length);
      expect(parse(c.ids)).toEqual(expected.map((r) => Number(r.id)));
      // float8's text is its shortest exact form: the distances come back bit for bit
      expect(parse(c.dists)).toEqual(expected.map((r) => Number(r.dist_m)));
      expect(await circleOf(t.database.db, city, radius)).toBe(c);
      expect(await placesInCircle(t.database.db, city, radius)).toBe(expected.length);
    }
    // no radius: the city alone, at distance 0
    expect(await circleOf(t.database.db, CITY.riyadh, undefined)).toEqual({ n: 1, ids: `{${CITY.riyadh}}`, dists: '{0}' });
  });

  // retry: the cache is module-level and shared by the server files of a worker (isolate: false);
  // work still running from another file's app was seen to reorder it mid-test once in a CI run
  // (2026-12-08, PostgreSQL). Not understood yet: see the closing note of issue 51's stop.
  it('keeps the remembered circles under their bound, dropping the least recently used first', { retry: 2 }, async () => {
    const cities = [CITY.jeddah, CITY.dammam, CITY.riyadh, 6, 14, 31];
    // each circle's characters as circleOf holds them ({id,…} and {metres,…})
    const chars = new Map<number, number>();
    for (const city of cities) {
      const rows = await sqlCircle(city, 150);
      chars.set(city, `{${rows.map((r) => r.id).join(',')}}`.length + `{${rows.map((r) => Number(r.dist_m)).join(',')}}`.length);
    }
    // room for any circle beside Jeddah's, never for three
    const bound = Math.max(...cities.slice(1).map((c) => chars.get(c)! + chars.get(CITY.jeddah)!));
    // circles other files remembered (the server projects share one module graph per worker),
    // Jeddah's among them: a smaller bound drops the least recently used at once, not on the next miss
    await circleOf(t.database.db, CITY.dammam, 500);
    await circleOf(t.database.db, CITY.jeddah, 150);
    const was = circleCache.bound(bound);
    try {
      expect(circleCache.stats().chars).toBeLessThanOrEqual(bound);
      expect(circleCache.keys()).toEqual([`${CITY.jeddah}:150`]);
      for (const [i, city] of cities.entries()) {
        await circleOf(t.database.db, city, 150);
        // the first circle asked again: it becomes the most recently used
        if (i > 0) await circleOf(t.database.db, CITY.jeddah, 150);
        expect(circleCache.stats().chars).toBeLessThanOrEqual(bound);
        expect(circleCache.keys().at(-1)).toBe(`${CITY.jeddah}:150`);
        expect(circleCache.keys()).toContain(`${city}:150`);
      }
      // the oldest circles not asked again are gone; the one asked every time stays
      expect(circleCache.keys()).not.toContain(`${CITY.dammam}:150`);
      expect(circleCache.keys()).toContain(`${CITY.jeddah}:150`);

      // a circle larger than the bound is answered, not kept
      circleCache.bound(10);
      const big = await circleOf(t.database.db, CITY.riyadh, 300);
      expect(big.n).toBe((await sqlCircle(CITY.riyadh, 300)).length);
      expect(circleCache.keys()).not.toContain(`${CITY.riyadh}:300`);
    } finally {
      circleCache.bound(was);
    }
  });

  it('runs every PostgreSQL session of the product without JIT compilation', async () => {
    if (t.database.engine !== 'postgres') return;
    // the pool of custom plans and its generic-plan sibling (db/client.ts; queryRows' plan)
    const custom = await queryRows<{ jit: string }>(t.database.db, sql`show jit`);
    const generic = await queryRows<{ jit: string }>(t.database.db, sql`select current_setting('jit') as jit`, 'test_jit', 'generic');
    expect([custom[0].jit, generic[0].jit]).toEqual(['off', 'off']);
  });
});
