import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { IMMUTABLE } from './web.ts';

/** Issue 9: the built web app is served precompressed, hashed assets cached for a year, the shell revalidated. */
describe('web app delivery', () => {
  let t: TestContext;
  const dist = mkdtempSync(join(tmpdir(), 'masar-web-'));
  const js = `export const lane = ${JSON.stringify('Riyadh → Jeddah '.repeat(200))};\n`;
  const html = `<!doctype html><html><body><div id="root"></div>${' '.repeat(2000)}</body></html>`;

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets/index-Ab12Cd34.js'), js);
    writeFileSync(join(dist, 'assets/index-Ab12Cd34.js.br'), brotliCompressSync(js));
    writeFileSync(join(dist, 'assets/index-Ab12Cd34.js.gz'), gzipSync(js));
    writeFileSync(join(dist, 'index.html'), html);
    writeFileSync(join(dist, 'index.html.br'), brotliCompressSync(html));
    writeFileSync(join(dist, 'index.html.gz'), gzipSync(html));
    writeFileSync(join(dist, 'boot.js'), '/* boot */');
    t = await createTestApp({ WEB_DIST: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends the brotli twin of a hashed asset to a browser that accepts it, cached for a year', async () => {
    const res = await t.app.inject({ url: '/assets/index-Ab12Cd34.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(js);
    expect(res.rawPayload.length).toBeLessThan(js.length / 5);
  });

  it('falls back to gzip, then to the plain file', async () => {
    const gz = await t.app.inject({ url: '/assets/index-Ab12Cd34.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(js);
    const plain = await t.app.inject({ url: '/assets/index-Ab12Cd34.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);
    expect(plain.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('revalidates the HTML shell (also on a deep link), boot.js and config.js', async () => {
    for (const url of ['/', '/index.html', '/carriers/load-search?view=map', '/boot.js', '/config.js']) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    const deep = await t.app.inject({ url: '/shippers/my-loads', headers: { 'accept-encoding': 'br' } });
    expect(deep.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(deep.rawPayload).toString()).toBe(html);
  });

  it('answers a missing asset (an old build’s chunk after a deploy) with a 404, never the HTML shell', async () => {
    for (const url of ['/assets/LoadSearchPage-Old12345.js', '/assets/index-Old12345.css', '/assets/logo-Old12345.svg?v=1', '/sw.js', '/assets/']) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br', accept: '*/*' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).not.toMatch(/text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-store');
      expect(res.json(), url).toMatchObject({ code: 'NOT_FOUND' });
    }
    // the asset that exists is still served, and a page path still gets the shell
    expect((await t.app.inject({ url: '/assets/index-Ab12Cd34.js' })).statusCode).toBe(200);
    const page = await t.app.inject({ url: '/carriers/load-search' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });
});

/** Issue 9, home LCP: a signed-out visitor of `/` gets the prerendered home page inside #root, in their language. */
describe('the prerendered guest home page', () => {
  let t: TestContext;
  const dist = mkdtempSync(join(tmpdir(), 'masar-web-'));
  const html = `<!doctype html><html><head><meta name="description" content="Masar — the Saudi freight load board" /><title>Masar | مسار</title></head><body><div id="root"></div><script type="module" src="/assets/index-Ab12Cd34.js"></script></body></html>`;
  const manifest = {
    'src/features/public/pages/CityPage.tsx': { file: 'assets/CityPage-1.js' },
    'index.html': { file: 'assets/index-Ab12Cd34.js', imports: [] },
    'src/i18n/bundles/en.ts': { file: 'assets/en-1.js' },
    'src/i18n/bundles/ar.ts': { file: 'assets/ar-1.js' },
    'src/features/home/pages/HomePage.tsx': { file: 'assets/HomePage-1.js' },
    'src/features/loads/pages/LoadSearchPage.tsx': { file: 'assets/LoadSearchPage-1.js', imports: ['_Table-1.js'] },
    '_Table-1.js': { file: 'assets/Table-1.js' },
    'src/app/slots.ts': { file: 'assets/slots-1.js', imports: ['index.html'] },
    'src/i18n/locales/en/shipments.json': { file: 'assets/shipments-en.js' },
    'src/i18n/locales/ar/shipments.json': { file: 'assets/shipments-ar.js' },
    'src/i18n/locales/en/rates.json': { file: 'assets/rates-en.js' },
    '../../node_modules/openapi-fetch/dist/index.mjs': { file: 'assets/dist-1.js' },
  };

  beforeAll(async () => {
    mkdirSync(join(dist, '.vite'), { recursive: true });
    mkdirSync(join(dist, 'prerender'));
    writeFileSync(join(dist, '.vite/manifest.json'), JSON.stringify(manifest));
    writeFileSync(join(dist, 'index.html'), html);
    writeFileSync(join(dist, 'prerender/home.en.html'), '<h1>The Saudi freight load board</h1>');
    writeFileSync(join(dist, 'prerender/home.ar.html'), '<h1>منصة الشحن السعودية</h1>');
    writeFileSync(join(dist, 'prerender/load-search-2.en.html'), '<h2>Search shipments</h2>');
    writeFileSync(join(dist, 'prerender/lane-riyadh-to-jeddah.en.html'), '<h1>Truck loads from Riyadh to Jeddah</h1>');
    writeFileSync(join(dist, 'prerender/lane-riyadh-to-jeddah.ar.html'), '<h1>شحنات الشاحنات من الرياض إلى جدة</h1>');
    writeFileSync(
      join(dist, 'prerender/pages.json'),
      JSON.stringify([
        { file: 'home', path: '/', accountType: null },
        { file: 'load-search-2', path: '/carriers/load-search', accountType: 2 },
        {
          file: 'lane-riyadh-to-jeddah',
          path: '/city/riyadh-to-jeddah',
          accountType: null,
          head: {
            en: { title: 'Truck loads from Riyadh to Jeddah · Masar', description: 'Open loads on the Riyadh – Jeddah lane, "live"' },
            ar: { title: 'شحنات الشاحنات من الرياض إلى جدة · مسار', description: 'الشحنات المفتوحة على مسار الرياض – جدة' },
          },
        },
      ]),
    );
    t = await createTestApp({ WEB_DIST: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string>) =>
    t.app.inject({ url, headers: { 'accept-encoding': 'br', ...headers } }).then((r) => brotliDecompressSync(r.rawPayload).toString());

  it('puts the home page in the reader’s language inside #root, with the page and strings preloaded', async () => {
    const en = await get('/', { 'accept-language': 'en-US' });
    expect(en).toContain('<div id="root"><h1>The Saudi freight load board</h1></div>');
    expect(en).toContain('<link rel="modulepreload" crossorigin href="/assets/HomePage-1.js">');
    expect(en).toContain('href="/assets/en-1.js"');
    expect(await get('/', { 'accept-language': 'ar-SA,ar;q=0.9' })).toContain('<div id="root"><h1>منصة الشحن السعودية</h1></div>');
    // the language cookie wins over the browser's language
    expect(await get('/', { 'accept-language': 'ar-SA', cookie: 'language=en' })).toContain('The Saudi freight load board');
  });

  it('gives a carrier the prerendered load search of carriers, and no one else; not with filters in the query', async () => {
    expect(await get('/carriers/load-search', { cookie: 'language=en; userType=2; uid=abc' })).toContain('<div id="root"><h2>Search shipments</h2></div>');
    expect(await get('/carriers/load-search', { cookie: 'language=en; userType=1; uid=abc' })).toContain('<div id="root"></div>');
    expect(await get('/carriers/load-search', { cookie: 'language=en' })).toContain('<div id="root"></div>');
    expect(await get('/carriers/load-search?pickupCityId=1', { cookie: 'language=en; userType=2; uid=abc' })).toContain('<div id="root"></div>');
    // a page prerendered in one language only is not served in the other
    expect(await get('/carriers/load-search', { cookie: 'language=ar; userType=2; uid=abc' })).toContain('<div id="root"></div>');
  });

  it('serves a city-to-city lane page prerendered, with its own title and description, in the reader’s language (issue 23)', async () => {
    const en = await get('/city/riyadh-to-jeddah', { cookie: 'language=en' });
    expect(en).toContain('<div id="root"><h1>Truck loads from Riyadh to Jeddah</h1></div>');
    expect(en).toContain('<title>Truck loads from Riyadh to Jeddah · Masar</title>');
    expect(en).toContain('<meta name="description" content="Open loads on the Riyadh – Jeddah lane, &quot;live&quot;" />');
    expect(en).not.toContain('Masar | مسار');
    expect(en).toContain('<link rel="modulepreload" crossorigin href="/assets/CityPage-1.js">');
    const ar = await get('/city/riyadh-to-jeddah', { cookie: 'language=ar' });
    expect(ar).toContain('<div id="root"><h1>شحنات الشاحنات من الرياض إلى جدة</h1></div>');
    expect(ar).toContain('<title>شحنات الشاحنات من الرياض إلى جدة · مسار</title>');
    // a page not prerendered (or with a query) keeps the shell's head and an empty root
    const other = await get('/city/riyadh-to-mars', { cookie: 'language=en' });
    expect(other).toContain('<title>Masar | مسار</title>');
    expect(other).toContain('<div id="root"></div>');
    expect(await get('/city/riyadh-to-jeddah?utm_source=x', { cookie: 'language=en' })).toContain('<div id="root"></div>');
  });

  it('sends a signed-in visitor of / to the landing page of their type, with no page in between', async () => {
    for (const [type, to] of [
      [1, '/shippers/my-loads'],
      [2, '/carriers/load-search'],
      [3, '/brokers/my-loads'],
    ] as const) {
      const res = await t.app.inject({ url: '/?utm_source=sms', headers: { cookie: `language=ar; userType=${type}; uid=abc` } });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(to);
      expect(res.headers['cache-control']).toBe('private, no-cache');
    }
    // no or an unknown type (a user who has not chosen one yet): the page itself
    expect((await t.app.inject({ url: '/', headers: { cookie: 'userType=9' } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/' })).statusCode).toBe(200);
  });

  it('preloads what the load search asks for before its first render: the page with its imports, its slots, its strings in the reader’s language and the API client (issue 23)', async () => {
    const links = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    const en = links(await get('/carriers/load-search', { cookie: 'language=en; userType=2; uid=abc' }));
    expect(en).toEqual(
      expect.arrayContaining([
        '/assets/en-1.js',
        '/assets/dist-1.js',
        '/assets/LoadSearchPage-1.js',
        '/assets/Table-1.js',
        '/assets/slots-1.js',
        '/assets/shipments-en.js',
        '/assets/rates-en.js',
      ]),
    );
    // the entry is index.html's own script, never preloaded twice; the other language's strings are not fetched
    expect(en).not.toContain('/assets/index-Ab12Cd34.js');
    expect(en).not.toContain('/assets/shipments-ar.js');
    expect(new Set(en).size).toBe(en.length);
    const ar = links(await get('/carriers/load-search', { cookie: 'language=ar; userType=2; uid=abc' }));
    expect(ar).toContain('/assets/shipments-ar.js');
    expect(ar).not.toContain('/assets/shipments-en.js');
    // every page gets the API client; a page without slots does not get the slots chunk
    const home = links(await get('/', { cookie: 'language=en' }));
    expect(home).toContain('/assets/dist-1.js');
    expect(home).not.toContain('/assets/slots-1.js');
  });

  it('gives every other path the empty shell', async () => {
    expect(await get('/login', { cookie: 'language=en' })).toContain('<div id="root"></div>');
    expect(await get('/carriers/load-search', {})).toContain('<div id="root"></div>');
  });
});
