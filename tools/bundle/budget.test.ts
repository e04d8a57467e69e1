import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasBuild, initialJs, LANGUAGE_BUNDLE, readManifest, sizeOf, staticClosure } from './size.ts';
import { ROUTES } from './routes.ts';
import { type BudgetVerdict, CEILINGS_BROTLI_KB, checkBudget, LANGS, lowerBudget, readBudget } from './budget.ts';

/**
 * Issue 9 size budget, read from the build's Vite manifest (sizes are deterministic; timings are
 * never asserted). "Initial JS" of a route is the entry plus the route's page module with all
 * their static imports and the reader's language bundle, measured brotli-compressed as the
 * server sends it to browsers, in English and in Arabic.
 * Besides issue 9's two ceilings below, every route of routes.ts has a per-language budget in
 * budget.json (gzip and brotli; issue 51's ratchet): over it fails, far under it prints a hint.
 * `npm test` builds first; without a build the build's tests are skipped with a notice.
 */
const DIST = resolve(import.meta.dirname, '../../apps/web/dist');
const built = hasBuild(DIST);
if (!built) console.warn('[size budget] skipped: no web build (npm run build)');
const KB = 1024;
const BUDGET = { home: 200 * KB, 'load search': 250 * KB };
const BUDGET_FILE = resolve(import.meta.dirname, 'budget.json');

describe.skipIf(!built)('web size budget', () => {
  const manifest = built ? readManifest(DIST) : {};
  let verdict: BudgetVerdict;
  // Measures every route once (size.ts keeps each chunk's sizes, so the tests below read them);
  // brotli at quality 11 of every chunk takes a while on a busy 2-core machine.
  beforeAll(() => {
    verdict = checkBudget(DIST, manifest, ROUTES, readBudget(BUDGET_FILE));
    // builds vary a little: a budget far above its route is a hint to lower it, not a failure
    for (const line of verdict.lowerable) console.log(`[size budget] ${line}`);
  }, 300_000);

  const cases = Object.entries(BUDGET).flatMap(([route, budget]) => (['en', 'ar'] as const).map((lang) => [route, lang, budget] as const));
  it.each(cases)('keeps the initial JS of %s (%s) within budget (brotli)', (route, lang, budget) => {
    const files = initialJs(manifest, ROUTES[route as keyof typeof BUDGET], lang);
    const { brotli, gzip } = sizeOf(DIST, files);
    expect(brotli, `${route} (${lang}): ${(brotli / KB).toFixed(1)} KB brotli, ${(gzip / KB).toFixed(1)} KB gzip`).toBeLessThanOrEqual(budget);
  });

  describe('per-route budgets (budget.json)', () => {
    const routeCases = Object.keys(ROUTES).flatMap((route) => LANGS.map((lang) => [route, lang] as const));
    it.each(routeCases)('keeps the initial JS of %s (%s) within its budget.json budget (gzip and brotli)', (route, lang) => {
      const row = verdict.rows.find((r) => r.route === route && r.lang === lang)!;
      const mine = verdict.failures.filter((f) => f.startsWith(`${route} (${lang}):`));
      expect(mine, `${row.gzipKB.toFixed(1)} KB gzip, ${row.brotliKB.toFixed(1)} KB brotli`).toEqual([]);
    });
  });

  // Issue 23: a first visit to home (a guest's `/`) is at most 25 JS requests; the bundler's
  // chunking groups (apps/web/vite.config.ts) merge what every page shares.
  it.each(['en', 'ar'] as const)('fetches the home page’s initial JS in at most 25 requests (%s)', (lang) => {
    const files = initialJs(manifest, ROUTES.home, lang);
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(25);
  });

  it('fetches only the reader’s language: each language is its own chunk, outside the entry', () => {
    for (const key of Object.values(LANGUAGE_BUNDLE)) {
      expect(manifest[key]?.isDynamicEntry, key).toBe(true);
      for (const src of Object.values(ROUTES)) expect(staticClosure(manifest, ['index.html', src]).has(key), src).toBe(false);
    }
  });

  it('loads the map (Leaflet) only with the map view', () => {
    const key = Object.keys(manifest).find((k) => k.endsWith('src/components/LoadsMap.tsx'));
    expect(key, 'LoadsMap is its own chunk').toBeDefined();
    for (const src of Object.values(ROUTES)) expect(staticClosure(manifest, ['index.html', src]).has(key!), src).toBe(false);
    expect(manifest[ROUTES['load search']].dynamicImports).toContain(key);
  });

  it('loads the Arabic date locale only for Arabic (a dynamic chunk, in no route’s initial JS)', () => {
    const key = Object.keys(manifest).find((k) => /dayjs\/locale\/ar\.js$/.test(k));
    expect(key, 'dayjs/locale/ar is its own chunk').toBeDefined();
    expect(manifest[key!].isDynamicEntry).toBe(true);
    for (const src of Object.values(ROUTES)) expect(staticClosure(manifest, ['index.html', src]).has(key!), src).toBe(false);
  });

  it('ships a brotli and a gzip twin of every text asset over 1 KB', () => {
    const assets = join(DIST, 'assets');
    const missing = readdirSync(assets)
      .filter((f) => /\.(js|css)$/.test(f) && statSync(join(assets, f)).size > 1024)
      .filter((f) => !existsSync(join(assets, `${f}.br`)) || !existsSync(join(assets, `${f}.gz`)));
    expect(missing).toEqual([]);
  });
});

describe('budget.json', () => {
  const budget = readBudget(BUDGET_FILE);
  it('has a gzip and a brotli budget for every route of routes.ts in both languages, and no other', () => {
    expect(Object.keys(budget.routes).sort()).toEqual(Object.keys(ROUTES).sort());
    for (const [route, langs] of Object.entries(budget.routes))
      for (const lang of LANGS) {
        expect(langs[lang]?.gzipKB, `${route} ${lang}`).toBeGreaterThan(0);
        expect(langs[lang]?.brotliKB, `${route} ${lang}`).toBeGreaterThan(0);
      }
  });
  it('stays within issue 9’s ceilings (brotli: home 200 KB, load search 250 KB)', () => {
    expect(Object.keys(CEILINGS_BROTLI_KB).sort()).toEqual(Object.keys(BUDGET).sort());
    for (const [route, ceiling] of Object.entries(CEILINGS_BROTLI_KB)) {
      expect(ceiling * KB).toBe(BUDGET[route as keyof typeof BUDGET]);
      for (const lang of LANGS) expect(budget.routes[route]?.[lang]?.brotliKB, `${route} ${lang}`).toBeLessThanOrEqual(ceiling);
    }
  });
});

// The check itself, on a fake build (fixtures/build: a manifest, a small page and a page of 6 KB of random bytes).
describe('the budget check (fixture build)', () => {
  const dist = resolve(import.meta.dirname, 'fixtures/build');
  const routes = { big: 'src/pages/Big.tsx', small: 'src/pages/Small.tsx' };
  const budget = readBudget(resolve(import.meta.dirname, 'fixtures/budget.json'));
  const verdict = checkBudget(dist, readManifest(dist), routes, budget);

  it('fails a route over its gzip or its brotli budget', () => {
    expect(verdict.failures).toHaveLength(2);
    expect(verdict.failures[0]).toMatch(/^big \(en\): [\d.]+ KB gzip, over its budget of 2 KB$/);
    expect(verdict.failures[1]).toMatch(/^big \(ar\): [\d.]+ KB brotli, over its budget of 2 KB$/);
  });

  it('says which budgets can be lowered (more than 5% under), without failing them', () => {
    expect(verdict.lowerable.filter((l) => l.startsWith('small '))).toHaveLength(4);
    expect(verdict.lowerable.every((l) => l.includes('the budget can be lowered'))).toBe(true);
    expect(verdict.failures.some((f) => f.startsWith('small'))).toBe(false);
  });

  it('fails a route that has no budget', () => {
    const { failures } = checkBudget(dist, readManifest(dist), { ...routes, other: 'src/pages/Small.tsx' }, budget);
    expect(failures.filter((f) => f.startsWith('other'))).toEqual([
      expect.stringContaining('other (en): no budget'),
      expect.stringContaining('other (ar): no budget'),
    ]);
  });

  it('ratchets:update lowers a budget far above its route, never raises one', () => {
    const { next, changes } = lowerBudget(verdict.rows, budget);
    expect(next.routes.small?.en?.gzipKB).toBeLessThan(1);
    expect(next.routes.big).toEqual({ en: { gzipKB: 2, brotliKB: expect.any(Number) }, ar: { gzipKB: expect.any(Number), brotliKB: 2 } });
    expect(next.routes.big?.en?.brotliKB).toBeLessThan(20);
    expect(changes.length).toBe(6);
    // the lowered budgets still hold what they measured
    expect(checkBudget(dist, readManifest(dist), routes, next).failures).toEqual(verdict.failures);
  });
});
