import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasBuild, initialJs, LANGUAGE_BUNDLE, readManifest, sizeOf, staticClosure } from './size.ts';
import { ROUTES } from './routes.ts';

/**
 * Issue 9 size budget, read from the build's Vite manifest (sizes are deterministic; timings are
 * never asserted). "Initial JS" of a route is the entry plus the route's page module with all
 * their static imports and the reader's language bundle, measured brotli-compressed as the
 * server sends it to browsers, in English and in Arabic.
 * `npm test` builds first; without a build this file is skipped with a notice.
 */
const DIST = resolve(import.meta.dirname, '../../apps/web/dist');
const built = hasBuild(DIST);
if (!built) console.warn('[size budget] skipped: no web build (npm run build)');
const KB = 1024;
const BUDGET = { home: 200 * KB, 'load search': 250 * KB };

describe.skipIf(!built)('web size budget', () => {
  const manifest = built ? readManifest(DIST) : {};

  const cases = Object.entries(BUDGET).flatMap(([route, budget]) => (['en', 'ar'] as const).map((lang) => [route, lang, budget] as const));
  it.each(cases)('keeps the initial JS of %s (%s) within budget (brotli)', (route, lang, budget) => {
    const files = initialJs(manifest, ROUTES[route as keyof typeof BUDGET], lang);
    const { brotli, gzip } = sizeOf(DIST, files);
    expect(brotli, `${route} (${lang}): ${(brotli / KB).toFixed(1)} KB brotli, ${(gzip / KB).toFixed(1)} KB gzip`).toBeLessThanOrEqual(budget);
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
