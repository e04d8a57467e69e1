import { existsSync } from 'node:fs';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';
import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import { createWebSocketStream } from 'ws';
import { REALTIME_PATH } from '@masar/shared';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Gateways } from './gateways/index.ts';
import authPlugin from './plugins/auth.ts';
import seoPlugin from './plugins/seo.ts';
import securityHeaders from './plugins/security-headers.ts';
import docsPlugin from './plugins/docs.ts';
import idempotencyPlugin from './plugins/idempotency.ts';
import { appShell, isAssetPath, REVALIDATE, webPlugin } from './plugins/web.ts';
import { createContainer, type Container } from './container.ts';
import errorsPlugin from './plugins/errors.ts';
import i18nPlugin, { pickDigitSystem, pickLanguage } from './plugins/i18n.ts';
import { registerModules } from './modules/index.ts';
import { errorMessage } from '@masar/shared';
import { errSerializer, REDACT_PATHS, reqSerializer } from './lib/log.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    gateways: Gateways;
    /** The composition root: every service and gateway (container.ts). */
    container: Container;
  }
}

export type App = FastifyInstance;

let asyncStdout: ReturnType<typeof pino.destination> | undefined;
/** One asynchronous stdout destination per process (pino's SonicBoom), flushed at exit. */
function stdoutLog() {
  if (!asyncStdout) {
    const dest = pino.destination({ dest: 1, sync: false });
    const flush = () => {
      try {
        dest.flushSync();
      } catch {
        // not opened yet: nothing written
      }
    };
    process.once('beforeExit', flush);
    process.once('exit', flush);
    asyncStdout = dest;
  }
  return asyncStdout;
}

/** Read routes hit at thousands per second (issue 10): their request logs are sampled. */
const HOT_ROUTES = new Set(['GET /api/v1/loads']);
const SAMPLED = Symbol('requestLogSampled');

/**
 * Request logging: every request of every route, except the hot read routes, where one request
 * in `every` is logged (its "incoming" and "completed" lines) — and every one that fails or
 * answers 4xx/5xx, always. At 1,000 searches per second two log lines per request cost more
 * CPU than a cached answer.
 */
class SampledRequestLog extends LogController {
  private n = 0;
  private readonly every: number;
  constructor(every: number) {
    super();
    this.every = every;
  }
  private sampledOut(req: FastifyRequest): boolean {
    const r = req as FastifyRequest & { [SAMPLED]?: boolean };
    if (r[SAMPLED] === undefined) {
      const hot = HOT_ROUTES.has(`${req.method} ${req.routeOptions?.url ?? ''}`);
      r[SAMPLED] = hot && this.n++ % this.every !== 0;
    }
    return r[SAMPLED];
  }
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>) {
    if (this.sampledOut(request)) return;
    super.incomingRequest(request, reply, metadata);
  }
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>) {
    if (!error && reply.statusCode < 400 && this.sampledOut(request)) return;
    super.requestCompleted(error, request, reply, metadata);
  }
}

/** The Content-Security-Policy's directives beyond helmet's defaults. */
const CSP_DIRECTIVES = {
  'img-src': ["'self'", 'data:', 'blob:', 'https:'],
  'connect-src': ["'self'", 'ws:', 'wss:'],
  'worker-src': ["'self'", 'blob:'], // mqtt's timers: a blob: worker (worker-timers; issue 47)
  'style-src': ["'self'", "'unsafe-inline'"],
  'upgrade-insecure-requests': null,
};

/**
 * Build the Fastify app: plugins, every module under /api/v1, OpenAPI docs at /api/docs and the
 * built web app with SPA fallback. The caller owns `database` (opened and migrated) and closes it.
 */
export async function buildApp(opts: {
  config: Config;
  database: Database;
  gateways?: Gateways;
  logger?: boolean;
  /** Where the log goes (tests capture it); stdout by default. */
  logStream?: NodeJS.WritableStream;
  /** Services built elsewhere (else built here from config and database). */
  container?: Container;
}): Promise<App> {
  const { config, database } = opts;
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: { paths: REDACT_PATHS, censor: '[redacted]' },
            serializers: { err: errSerializer, req: reqSerializer },
            // stdout written asynchronously (flushed on close) unless the caller brings a stream
            stream: opts.logStream ?? stdoutLog(),
          },
    logController: new SampledRequestLog(config.LOG_SAMPLE_HOT_ROUTES),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 2 * 1024 * 1024,
    // signed links (lib/signed-links.ts, ~300 characters) travel in a path segment
    routerOptions: { maxParamLength: 1000 },
    // A malformed URL ("/api/v1/loads/%") fails before any hook runs: answer it with the same
    // localized envelope as every other error.
    frameworkErrors: (err, req, reply) => {
      const lang = pickLanguage(req.headers['language'], req.headers['accept-language']);
      const code = err.code === 'FST_ERR_BAD_URL' ? 'BAD_URL' : 'BAD_REQUEST';
      void (reply as unknown as FastifyReply)
        .status(400)
        .send({ message: errorMessage(code, lang, pickDigitSystem(req.headers['language'], req.headers['accept-language'], lang)), code });
    },
  }).withTypeProvider<ZodTypeProvider>();
  // The API takes JSON (and multipart uploads where a route says so): a text/plain body is a
  // 415 like any other unsupported type, not a string that fails validation.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  const container = opts.container ?? createContainer({ config, database, gateways: opts.gateways, log: app.log });
  app.decorate('container', container);
  app.decorate('gateways', container.gateways);
  // the job worker (if this process started it) stops before the database closes
  app.addHook('onClose', async () => {
    await container.close();
  });

  // Swagger UI's assets under /api/docs are served with their own CSP (staticCSP).
  await app.register(securityHeaders, { contentSecurityPolicy: { directives: CSP_DIRECTIVES } });
  // counters in Redis when REDIS_URL is set, so a limit holds across instances
  await app.register(rateLimit, {
    global: false,
    ...(container.redis ? { redis: container.redis, nameSpace: `${config.REDIS_KEY_PREFIX}rl:`, skipOnError: false } : {}),
    allowList: (req) => config.BENCH && (req.ip === '127.0.0.1' || req.ip === '::1' || req.ip === '::ffff:127.0.0.1'),
  });
  await app.register(cookie);
  await app.register(i18nPlugin);
  await app.register(errorsPlugin);
  await app.register(authPlugin, { sessions: container.services.sessions, apiKeys: container.services.apiKeys, jwtSecret: config.jwtSecret });
  await app.register(idempotencyPlugin, { service: container.services.idempotency, holdMs: config.IDEMPOTENCY_TEST_HOLD_MS });
  await app.register(docsPlugin);
  await app.register(seoPlugin, { publicUrl: config.PUBLIC_URL });

  app.get('/api/health', { config: { auth: 'none' }, schema: { hide: true } }, async () => ({ message: 'ok', data: { db: database.engine } }));
  await app.register(registerModules, { prefix: '/api/v1' });
  // The real-time channel (issue 21; docs/realtime.md): MQTT over WebSocket on this port.
  const realtime = container.realtime;
  if (realtime) {
    await realtime.start();
    await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
    app.get(REALTIME_PATH, { websocket: true, schema: { hide: true } }, (socket, req) => realtime.handle(createWebSocketStream(socket), req.raw));
  }
  // Runtime configuration for the web app (a script, not inline: CSP forbids inline scripts).
  const webConfig = JSON.stringify({ mapTilesUrl: config.MAP_TILES_URL });
  app.get('/config.js', { schema: { hide: true } }, (_req, reply) =>
    reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', REVALIDATE).send(`window.__MASAR_CONFIG__ = ${webConfig};\n`),
  );

  const hasWeb = existsSync(config.WEB_DIST);
  const sendShell = hasWeb ? appShell(config.WEB_DIST) : null;
  if (hasWeb) {
    await app.register(webPlugin, { root: config.WEB_DIST });
  }
  app.setNotFoundHandler((req, reply) => {
    if (req.method === 'GET' && !req.url.startsWith('/api/') && sendShell && !isAssetPath(req.url)) {
      return sendShell(req, reply);
    }
    // A missing file (e.g. an old build's hashed chunk asked for after a deploy) is a 404, never the
    // shell: the web app's failed import then reloads the page once (apps/web/src/lib/chunkReload.ts).
    if (isAssetPath(req.url)) reply.header('cache-control', 'no-store');
    return reply.status(404).send({ message: errorMessage('NOT_FOUND', req.lang ?? 'en', req.digits), code: 'NOT_FOUND' });
  });
  return app;
}
