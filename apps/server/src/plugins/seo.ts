import fp from 'fastify-plugin';
import { CITY_PAGES } from '@masar/shared';

/**
 * The public pages search engines may list (spec §1/§2 public paths; signed-in screens are not),
 * then one landing page per major city (/city/<slug>) and per lane between two of them. /thank-you is left out on purpose: it is
 * only the end of the contact form.
 */
export const PUBLIC_PAGES: readonly string[] = [
  '/',
  '/pricing',
  '/faq',
  '/about-us',
  '/help',
  '/contact',
  '/terms-and-conditions',
  '/privacy-policy',
  ...CITY_PAGES.map((c) => `/city/${c.slug}`),
  // the lane pages between them (issue 23): /city/riyadh-to-jeddah …
  ...CITY_PAGES.flatMap((a) => CITY_PAGES.filter((b) => b !== a).map((b) => `/city/${a.slug}-to-${b.slug}`)),
];

/**
 * robots.txt and sitemap.xml (issue 8, public pages): crawlers may read the public pages, never
 * the API or the signed-in screens. Absolute URLs from PUBLIC_URL, else the request's host.
 */
export default fp<{ publicUrl?: string }>(async (app, opts) => {
  const origin = (req: { protocol: string; host: string }) => (opts.publicUrl ?? `${req.protocol}://${req.host}`).replace(/\/$/, '');
  app.get('/robots.txt', { schema: { hide: true } }, (req, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(
        [
          'User-agent: *',
          'Allow: /',
          'Disallow: /api/',
          'Disallow: /shippers/',
          'Disallow: /carriers/',
          'Disallow: /brokers/',
          `Sitemap: ${origin(req)}/sitemap.xml`,
          '',
        ].join('\n'),
      ),
  );
  app.get('/sitemap.xml', { schema: { hide: true } }, (req, reply) => {
    const base = origin(req);
    const urls = PUBLIC_PAGES.map(
      (p) =>
        `  <url><loc>${base}${p}</loc><changefreq>${p === '/' || p.startsWith('/city/') ? 'hourly' : 'monthly'}</changefreq><priority>${p === '/' ? '1.0' : '0.6'}</priority></url>`,
    );
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`);
  });
});
