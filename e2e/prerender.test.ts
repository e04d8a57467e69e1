import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CITY_PAGES } from '@masar/shared';
import { ROOT } from './harness';

/**
 * Issue 23, build-level: `npm run build` prerenders every city and city-to-city lane page of the
 * sitemap in both languages, with its own title and description in dist/prerender/pages.json (the
 * list the server serves from, apps/server/src/plugins/web.ts). The lane's static facts (title,
 * intro, straight-line distance, links) are in the HTML; its open loads are live and come in the
 * browser.
 */
const dir = join(ROOT, 'apps/web/dist/prerender');
interface Page {
  file: string;
  path: string;
  accountType: number | null;
  head?: Record<'en' | 'ar', { title: string; description?: string }>;
}

describe.skipIf(!existsSync(join(dir, 'pages.json')))('prerendered city and lane pages (the build)', () => {
  const pages = existsSync(join(dir, 'pages.json')) ? (JSON.parse(readFileSync(join(dir, 'pages.json'), 'utf8')) as Page[]) : [];
  const html = (file: string, lang: 'en' | 'ar') => readFileSync(join(dir, `${file}.${lang}.html`), 'utf8');

  it('has every city and lane page of the sitemap, for guests, in English and Arabic, with a title and description', () => {
    const paths = [
      ...CITY_PAGES.map((c) => `/city/${c.slug}`),
      ...CITY_PAGES.flatMap((a) => CITY_PAGES.filter((b) => b !== a).map((b) => `/city/${a.slug}-to-${b.slug}`)),
    ];
    for (const path of paths) {
      const page = pages.find((p) => p.path === path);
      expect(page, path).toBeDefined();
      expect(page!.accountType).toBeNull();
      for (const lang of ['en', 'ar'] as const) {
        expect(page!.head?.[lang]?.title, `${path} ${lang}`).toMatch(lang === 'ar' ? / · مسار$/ : / · Masar$/);
        expect(page!.head?.[lang]?.description?.length ?? 0, `${path} ${lang}`).toBeGreaterThan(40);
        expect(html(page!.file, lang)).toContain('<h1');
      }
    }
  });

  it('puts a lane’s static facts in the HTML and leaves its live loads to the browser', () => {
    const en = html('lane-riyadh-to-jeddah', 'en');
    expect(en).toContain('Truck loads from Riyadh to Jeddah');
    // the straight-line distance of the two city centres, in the page's digits
    expect(en).toMatch(/data-testid="lane-distance"[^]*?\d{3} km/);
    expect(html('lane-riyadh-to-jeddah', 'ar')).toMatch(/data-testid="lane-distance"[^]*?[٠-٩]{3} كم/);
    // the open-loads count is live: a placeholder until the browser has asked
    expect(en).toMatch(/data-testid="lane-open"[^]*?…/);
    expect(html('city-riyadh', 'ar')).toContain('الرياض');
  });
});
