import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { CITY_PAGES } from '@masar/shared';
import cities from '../db/reference/cities.json' with { type: 'json' };
import { PUBLIC_PAGES } from './seo.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://masar.example' });
});
afterAll(() => t?.close());

describe('robots.txt and sitemap.xml', () => {
  it('let crawlers read the public pages and keep them out of the API and signed-in screens', async () => {
    const robots = await t.app.inject({ url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.body).toContain('Disallow: /api/');
    expect(robots.body).toContain('Disallow: /carriers/');
    expect(robots.body).toContain('Sitemap: https://masar.example/sitemap.xml');
    const sitemap = await t.app.inject({ url: '/sitemap.xml' });
    expect(sitemap.headers['content-type']).toMatch(/^application\/xml/);
    const locs = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual(PUBLIC_PAGES.map((p) => `https://masar.example${p}`));
    for (const p of ['/help', '/contact', '/city/riyadh', '/city/jazan']) expect(locs).toContain(`https://masar.example${p}`);
    // 8 pages, 12 cities and the 132 lanes between them
    expect(locs).toHaveLength(152);
    expect(locs).toContain('https://masar.example/city/riyadh-to-jeddah');
    expect(locs).not.toContain('https://masar.example/city/riyadh-to-riyadh');
    expect(locs).not.toContain('https://masar.example/thank-you');
    expect(sitemap.body).toContain('<loc>https://masar.example/city/jeddah</loc><changefreq>hourly</changefreq>');
  });
});

describe('city landing pages', () => {
  it('name real reference cities: each slug is its city in cities.json', () => {
    const byId = new Map((cities as { id: number; name_en: string }[]).map((c) => [c.id, c.name_en]));
    const simple = (s: string) =>
      s
        .toLowerCase()
        .replace(/^al /, '')
        .replace(/[^a-z]/g, '')
        .replace(/[aeiouy]/g, '');
    for (const c of CITY_PAGES) expect(simple(byId.get(c.cityId) ?? ''), c.slug).toBe(simple(c.slug));
    expect(new Set(CITY_PAGES.map((c) => c.cityId)).size).toBe(12);
  });

  it('carry their city’s centre from cities.json (the lane pages’ straight-line distance, prerendered)', () => {
    const centre = new Map((cities as { id: number; center: number[] }[]).map((c) => [c.id, c.center]));
    for (const c of CITY_PAGES) expect([c.lat, c.lng], c.slug).toEqual(centre.get(c.cityId));
  });
});
