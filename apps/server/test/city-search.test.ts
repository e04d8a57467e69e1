import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeSearch } from '@masar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cityAliases } from '../src/db/seed/reference.ts';
import { createTestApp, type TestContext } from './helpers.ts';

// Issue 23: city search reads Arabic and English as people type them, in SQL on an index.
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const search = async (q: string) => {
  const res = await t.app.inject({ url: `/api/v1/cities?search=${encodeURIComponent(q)}&limit=5` });
  expect(res.statusCode).toBe(200);
  return res.json().data as { items: { id: number; nameEn: string; nameAr: string }[]; total: number };
};

const REF = join(import.meta.dirname, '../src/db/reference');

describe('GET /api/v1/cities: spellings people type', () => {
  // [typed, city id, city]: Arabic letter variants (ة/ه, أ/ا, ى/ي …) and English alternates.
  const probes: [string, number, string][] = [
    ['جده', 18, 'Jeddah'],
    ['أبها', 15, 'Abha'],
    ['ابها', 15, 'Abha'],
    ['الأحساء', 3677, 'Al Ahsa'],
    ['الاحساء', 3677, 'Al Ahsa'],
    ['المدينه', 14, 'Madinah'],
    ['بريده', 11, 'Buraidah'],
    ['مكه', 6, 'Makkah'],
    ['Mecca', 6, 'Makkah'],
    ['Medina', 14, 'Madinah'],
    ['Damam', 13, 'Dammam'],
    ['Al-Ahsa', 3677, 'Al Ahsa'],
    ['Hofuf', 12, 'Al Hafuf'],
    ['Jiddah', 18, 'Jeddah'],
    ['Jedda', 18, 'Jeddah'],
    ['الطايف', 5, 'At Taif'],
    ['حايل', 10, 'Hail'],
    ['جـــدة', 18, 'Jeddah'],
    ['مَكَّة', 6, 'Makkah'],
    ['riyadh', 3, 'Riyadh'],
  ];
  for (const [typed, id, name] of probes)
    it(`"${typed}" finds ${name} first`, async () => {
      const { items } = await search(typed);
      expect(items[0], JSON.stringify(items.map((c) => c.nameEn))).toMatchObject({ id, nameEn: name });
    });

  it('an alias does not hide the other cities that contain the text', async () => {
    // "Al Jiddah" (Tabuk region) is a real village: it still comes, after Jeddah.
    const { items } = await search('جده');
    expect(items.map((c) => c.id).slice(0, 2)).toEqual([18, 2388]);
  });

  it('LIKE characters in the text are literal', async () => {
    expect((await search('%')).total).toBe(0);
    expect((await search('\\')).total).toBe(0);
  });
});

describe('cities.search_key', () => {
  it('is folded in SQL exactly as normalizeSearch folds the typed text, for every city', async () => {
    const rows = await t.database.query<{ id: number; name_en: string; name_ar: string; aliases: string; search_key: string }>(
      'select id, name_en, name_ar, aliases, search_key from cities order by id',
    );
    expect(rows.length).toBeGreaterThan(4000);
    const bad = rows.filter(
      (r) => r.search_key !== `|${normalizeSearch(r.name_en)}|${normalizeSearch(r.name_ar)}|${r.aliases.split('|').map(normalizeSearch).join('|')}|`,
    );
    expect(bad.slice(0, 5)).toEqual([]);
  });

  it('holds the shipped aliases, each for the city its entry names', async () => {
    const cities = new Map((JSON.parse(readFileSync(join(REF, 'cities.json'), 'utf8')) as { id: number; name_en: string }[]).map((c) => [c.id, c.name_en]));
    const entries = JSON.parse(readFileSync(join(REF, 'city-aliases.json'), 'utf8')) as { id: number; name_en: string }[];
    for (const e of entries) expect(cities.get(e.id), `alias entry ${e.id}`).toBe(e.name_en);
    const stored = await t.database.query<{ id: number; aliases: string }>(`select id, aliases from cities where aliases <> '' order by id`);
    expect(new Map(stored.map((r) => [r.id, r.aliases]))).toEqual(new Map([...cityAliases()].sort((a, b) => a[0] - b[0])));
  });

  it('the search can read the trigram index on search_key, not only the table', async () => {
    // 4,600 cities fit in ~70 pages: with fresh statistics the planner may rightly prefer reading
    // them all. Like the other plan tests, seq scans are switched off to show the index serves
    // every pattern the search uses (substring, word start, whole term).
    const plans = await t.database.session(async (c) => {
      await c.exec('set enable_seqscan = off');
      try {
        const out: string[] = [];
        for (const pattern of ['%جده%', '%|mecca|%', '%|الاحساء%'])
          out.push(
            (await c.query<Record<string, string>>(`explain select id from cities where search_key like $1`, [pattern]))
              .map((r) => Object.values(r)[0])
              .join('\n'),
          );
        return out;
      } finally {
        await c.exec('reset enable_seqscan');
      }
    });
    for (const plan of plans) {
      expect(plan, plan).toMatch(/Bitmap Index Scan on cities_search_key_trgm/);
      expect(plan, plan).not.toMatch(/Seq Scan/);
    }
  });
});
