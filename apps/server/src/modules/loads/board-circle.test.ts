import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { citiesAround, queryRows } from '../../lib/sql.ts';
import { CITY } from './loads.testkit.ts';
import { circleOf, createCircleCache, placesInCircle } from './board.repository.ts';

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

  it('keeps the remembered circles under their bound, dropping the least recently used first', async () => {
    const cities = [CITY.jeddah, CITY.dammam, CITY.riyadh, 6, 14, 31];
    // each circle's characters as circleOf holds them ({id,…} and {metres,…})
    const chars = new Map<number, number>();
    for (const city of cities) {
      const rows = await sqlCircle(city, 150);
      chars.set(city, `{${rows.map((r) => r.id).join(',')}}`.length + `{${rows.map((r) => Number(r.dist_m)).join(',')}}`.length);
    }
    // room for any circle beside Jeddah's, never for three; a cache of the test's own, so that
    // no other file's app (the server files of a worker share one module graph) can touch it
    const bound = Math.max(...cities.slice(1).map((c) => chars.get(c)! + chars.get(CITY.jeddah)!));
    const cache = createCircleCache(bound);
    await cache.circleOf(t.database.db, CITY.jeddah, 150);
    for (const [i, city] of cities.entries()) {
      await cache.circleOf(t.database.db, city, 150);
      // the first circle asked again: it becomes the most recently used
      if (i > 0) await cache.circleOf(t.database.db, CITY.jeddah, 150);
      expect(cache.stats().chars).toBe(cache.keys().reduce((n, k) => n + chars.get(Number(k.split(':')[0]))!, 0));
      expect(cache.stats().chars).toBeLessThanOrEqual(bound);
      expect(cache.keys().at(-1)).toBe(`${CITY.jeddah}:150`);
      expect(cache.keys()).toContain(`${city}:150`);
    }
    // the oldest circles not asked again are gone; the one asked every time stays
    expect(cache.keys()).not.toContain(`${CITY.dammam}:150`);
    expect(cache.keys()).toContain(`${CITY.jeddah}:150`);

    // concurrent misses for one circle read it once and count it once
    const racing = createCircleCache(bound);
    const all = await Promise.all(Array.from({ length: 20 }, () => racing.circleOf(t.database.db, CITY.riyadh, 150)));
    expect(new Set(all).size).toBe(1);
    expect(racing.stats()).toEqual({ circles: 1, chars: chars.get(CITY.riyadh) });

    // a circle larger than the bound is answered, not kept
    const tiny = createCircleCache(10);
    const big = await tiny.circleOf(t.database.db, CITY.riyadh, 300);
    expect(big.n).toBe((await sqlCircle(CITY.riyadh, 300)).length);
    expect(tiny.keys()).toEqual([]);
  });

  it('runs every PostgreSQL session of the product without JIT compilation', async () => {
    if (t.database.engine !== 'postgres') return;
    // the pool of custom plans and its generic-plan sibling (db/client.ts; queryRows' plan)
    const custom = await queryRows<{ jit: string }>(t.database.db, sql`show jit`);
    const generic = await queryRows<{ jit: string }>(t.database.db, sql`select current_setting('jit') as jit`, 'test_jit', 'generic');
    expect([custom[0].jit, generic[0].jit]).toEqual(['off', 'off']);
  });
});
