import { relative, sep } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Content-hashed build output (Vite's assets/): a changed file gets a new name, so it never changes. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, boot.js, favicon, config.js): cached but asked again every time. */
export const REVALIDATE = 'no-cache';

const HASHED = /^assets\//;

/**
 * The built web app: files under `root` served with their build-time brotli/gzip twins
 * (`preCompressed`, chosen by Accept-Encoding), hashed assets cached for a year, the rest
 * revalidated (the SPA fallback in app.ts sends index.html the same way).
 */
async function web(app: FastifyInstance, opts: { root: string }) {
  await app.register(fastifyStatic, {
    root: opts.root,
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, path) {
      const rel = relative(opts.root, path).split(sep).join('/');
      reply.header('cache-control', HASHED.test(rel) ? IMMUTABLE : REVALIDATE);
    },
  });
}

export const webPlugin = fp(web, { name: 'masar-web' });
