import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ROLE_LANDING, type AccountType } from '@masar/shared';
import { pickLanguage } from './i18n.ts';

/** Content-hashed build output (Vite's assets/): a changed file gets a new name, so it never changes. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, boot.js, favicon, config.js): cached but asked again every time. */
export const REVALIDATE = 'no-cache';

const HASHED = /^assets\//;

/**
 * A path the SPA fallback must not answer with index.html: anything under `/assets/` (Vite's
 * hashed build output) and any script, style or source-map file. When such a file is missing
 * (a client still holding the previous build's HTML asks for a chunk that the deploy removed), the
 * answer is a 404, never `text/html`: a module answered with HTML fails with a MIME error the app
 * cannot tell from a broken build, and the page goes blank.
 */
export const isAssetPath = (url: string) => {
  const path = url.split('?')[0];
  return path.startsWith('/assets/') || /\.(?:m?js|css|map)$/i.test(path);
};

/**
 * The built web app: files under `root` served with their build-time brotli/gzip twins
 * (`preCompressed`, chosen by Accept-Encoding), hashed assets cached for a year, the rest
 * revalidated (the SPA fallback in app.ts sends index.html the same way).
 */
async function web(app: FastifyInstance, opts: { root: string }) {
  await app.register(fastifyStatic, {
    root: opts.root,
    wildcard: false,
    // "/" is the app shell with its page's preloads (appShell below), like every other page path
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, path) {
      const rel = relative(opts.root, path).split(sep).join('/');
      reply.header('cache-control', HASHED.test(rel) ? IMMUTABLE : REVALIDATE);
    },
  });
}

export const webPlugin = fp(web, { name: 'masar-web' });

/** Vite manifest entry (dist/.vite/manifest.json, `build.manifest`). */
interface ManifestChunk {
  file: string;
  imports?: string[];
}

/**
 * The page module behind a path (keys of the Vite manifest), for the pages a first visit most
 * often opens: home, the load search of each role, login, my loads, with what the page's loader
 * in apps/web/src/app/routes.tsx requests beside it: its page strings (`namespaces`, i18n
 * PAGE_NAMESPACES, one chunk per language) and the panels other features lend it (`slots`).
 * Other paths get no page preload.
 */
const PAGES: { path: RegExp; page: string; namespaces?: string[]; slots?: boolean }[] = [
  { path: /^\/$/, page: 'src/features/home/pages/HomePage.tsx' },
  {
    path: /^\/(carriers|brokers)\/load-search\/?$|^\/shippers\/search-shipments\/?$/,
    page: 'src/features/loads/pages/LoadSearchPage.tsx',
    namespaces: ['shipments', 'searches', 'rates'],
    slots: true,
  },
  { path: /^\/login\/?$/, page: 'src/features/auth/pages/LoginPage.tsx' },
  { path: /^\/(shippers|brokers)\/my-loads\/?$|^\/carriers\/my-shipments\/?$/, page: 'src/features/loads/pages/MyLoadsPage.tsx', namespaces: ['shipments'] },
  // the city and lane landing pages (issue 23), prerendered for guests
  { path: /^\/city\/[a-z-]+\/?$/, page: 'src/features/public/pages/CityPage.tsx', namespaces: ['public'] },
];
/**
 * Chunks every page asks for as soon as the entry runs, outside the entry's static imports: the
 * API client (apps/web/src/lib/api.ts imports openapi-fetch lazily to keep it out of the budgeted
 * entry). Preloaded so the first API call does not wait for one more download after the entry ran.
 */
const EAGER = ['../../node_modules/openapi-fetch/dist/index.mjs'];

/** The reader's language as public/boot.js picks it: the `language` cookie, else Accept-Language. */
function shellLanguage(req: FastifyRequest): 'en' | 'ar' {
  const m = /(?:^|;\s*)language=(en|ar)/.exec(req.headers.cookie ?? '');
  return m ? (m[1] as 'en' | 'ar') : pickLanguage(undefined, req.headers['accept-language']);
}

/**
 * Pages prerendered at build time (dist/prerender/<file>.<lang>.html) and the visitor each was made
 * for, as the web build's scripts/prerender.ts lists them in dist/prerender/pages.json: the guest
 * home page, each role's load search for that role (`userType` cookie, web lib/storage.ts,
 * spec §9; accountType null = a guest), and the city and lane landing pages for guests (issue 23),
 * which bring their own title and meta description per language (`head`). Served on the bare path
 * only: filters in the query string would change the page. No list (a test dist, an older build):
 * nothing is prerendered.
 */
interface PrerenderedPage {
  file: string;
  path: string;
  accountType: number | null;
  head?: Partial<Record<'en' | 'ar', { title: string; description?: string }>>;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The shell's `<title>` and `<meta name="description">` replaced by a prerendered page's own. */
export function withHead(html: string, head: { title: string; description?: string } | undefined): string {
  if (!head) return html;
  let out = html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(head.title)}</title>`);
  if (head.description) {
    const meta = `<meta name="description" content="${escapeHtml(head.description)}" />`;
    out = /<meta name="description"[^>]*>/.test(out)
      ? out.replace(/<meta name="description"[^>]*>/, () => meta)
      : out.replace('</head>', () => `  ${meta}\n  </head>`);
  }
  return out;
}
const prerenderedPages = (root: string): PrerenderedPage[] => {
  const list = join(root, 'prerender/pages.json');
  return existsSync(list) ? (JSON.parse(readFileSync(list, 'utf8')) as PrerenderedPage[]) : [];
};

const userTypeOf = (req: FastifyRequest) => {
  const m = /(?:^|;\s*)userType=(\d)/.exec(req.headers.cookie ?? '');
  return m ? Number(m[1]) : null;
};

/**
 * A signed-in visitor of `/` is sent by the server to their type's landing page (302; issue 23:
 * the client-side redirect showed a blank page for 1–3 s first). Signed in means the web app's
 * `userType` cookie (lib/storage.ts, written at sign-in and deleted at sign-out); the cookie is
 * a hint, not a credential — the landing page still asks the API, and a stale hint (a session
 * that ended without sign-out) lands on a page whose guard sends the visitor home in the client.
 */
function landingRedirect(req: FastifyRequest, reply: FastifyReply): boolean {
  if (req.url.split('?')[0] !== '/') return false;
  const type = userTypeOf(req);
  const to = type !== null ? ROLE_LANDING[type as AccountType] : undefined;
  if (!to) return false;
  void reply.header('cache-control', 'private, no-cache').header('vary', 'cookie').redirect(to, 302);
  return true;
}

/**
 * The SPA's index.html for any page path (the not-found fallback of app.ts), with
 * `<link rel="modulepreload">` for the path's page chunk and the reader's language strings
 * (src/i18n/bundles/{en,ar}.ts) and their imports: the browser fetches them with the entry instead
 * of after running it (issue 9, home LCP). Each variant (page × language) is built once, with its
 * brotli and gzip twins; revalidated (`no-cache`), varying on the cookie and Accept-Language.
 * The visitor a page was prerendered for (prerender/pages.json) also gets its HTML inside `#root`, so it
 * paints before any script runs (issue 9, LCP). Without a manifest (a test dist) the
 * file is sent as it is.
 */
export function appShell(root: string) {
  const manifestPath = join(root, '.vite/manifest.json');
  if (!existsSync(manifestPath)) {
    return (req: FastifyRequest, reply: FastifyReply) =>
      landingRedirect(req, reply) ? reply : reply.header('cache-control', REVALIDATE).sendFile('index.html');
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const html = readFileSync(join(root, 'index.html'), 'utf8');
  const closure = (key: string, seen = new Set<string>()): Set<string> => {
    for (const i of manifest[key]?.imports ?? []) if (!seen.has(i)) closure(i, seen.add(i));
    return seen;
  };
  // the entry and its imports are already in index.html
  const inShell = closure('index.html', new Set(['index.html']));
  const filesOf = (key: string) => (manifest[key] ? [key, ...closure(key)].filter((k) => !inShell.has(k)).map((k) => manifest[k].file) : []);
  const pages = prerenderedPages(root);
  const prerendered = (file: string, lang: 'en' | 'ar') => {
    const path = join(root, `prerender/${file}.${lang}.html`);
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  };
  const variants = new Map<string, { raw: string; br: Buffer; gz: Buffer }>();
  const variant = (page: (typeof PAGES)[number] | undefined, lang: 'en' | 'ar', pre: PrerenderedPage | undefined) => {
    const body = pre?.file ?? null;
    const id = `${page?.page ?? ''}|${lang}|${body ?? ''}`;
    let v = variants.get(id);
    if (!v) {
      const keys = [
        `src/i18n/bundles/${lang}.ts`,
        ...EAGER,
        ...(page
          ? [page.page, ...(page.slots ? ['src/app/slots.ts'] : []), ...(page.namespaces ?? []).map((ns) => `src/i18n/locales/${lang}/${ns}.json`)]
          : []),
      ];
      const files = [...new Set(keys.flatMap(filesOf))];
      const links = files.map((f) => `    <link rel="modulepreload" crossorigin href="/${f}">\n`).join('');
      const prerender = body ? prerendered(body, lang) : null;
      let raw = html.replace('</head>', `${links}  </head>`);
      // the installable app's name in the reader's language (web push, issue 21; boot.js does the same on the client)
      if (lang === 'ar') raw = raw.replace('href="/manifest.webmanifest"', 'href="/manifest.ar.webmanifest"');
      if (prerender) raw = withHead(raw, pre?.head?.[lang]).replace('<div id="root"></div>', () => `<div id="root">${prerender}</div>`);
      v = { raw, br: brotliCompressSync(raw), gz: gzipSync(raw) };
      variants.set(id, v);
    }
    return v;
  };
  return (req: FastifyRequest, reply: FastifyReply) => {
    if (landingRedirect(req, reply)) return reply;
    const [path, query] = req.url.split('?');
    const userType = userTypeOf(req);
    const pre = query ? undefined : pages.find((p) => p.path === path && p.accountType === userType);
    const v = variant(
      PAGES.find((p) => p.path.test(path)),
      shellLanguage(req),
      pre,
    );
    const accept = String(req.headers['accept-encoding'] ?? '');
    reply.header('cache-control', REVALIDATE).header('vary', 'accept-encoding, cookie, accept-language').type('text/html; charset=utf-8');
    if (/\bbr\b/.test(accept)) return reply.header('content-encoding', 'br').send(v.br);
    if (/\bgzip\b/.test(accept)) return reply.header('content-encoding', 'gzip').send(v.gz);
    return reply.send(v.raw);
  };
}
