import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.ts';
import { runWithJournalSlot, setJournal } from '../lib/tx-journal.ts';
import type { IdempotencyService } from '../modules/idempotency/idempotency.service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Honour the Idempotency-Key header on this route. Default: every POST that creates
     * (answers 201 or 202); set false to opt out, true to opt in.
     */
    idempotent?: boolean;
    /**
     * The handler derives its answer from its transactions' results (ids created inside them):
     * after a crash a retry replays the committed transactions and reads the result back
     * (lib/tx-journal.ts). Without it, a request that died after committing stays 409 until 24 h:
     * only POST /api-keys, by design (its answer shows a secret kept only hashed; docs/api.md).
     * 'rerun': the handler keeps its own record per Idempotency-Key and settles a crashed run
     * itself (POST /subscription/createIntent: the payment intent by key, charged again with the
     * same intent id), so a retry after a crash runs it again, replaying nothing.
     */
    idempotencyReplay?: boolean | 'rerun';
  }
  interface FastifyRequest {
    /** The key this request holds; `recovered`: it rebuilds the answer of a run that committed and died (issue 48). */
    idempotency: { scope: string; key: string; heartbeat: NodeJS.Timeout; recovered: boolean } | null;
  }
}

const KEY_RE = /^[\x21-\x7E]{1,255}$/;
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * Idempotency-Key on every create (issue 6; DESIGN §3 "Every create takes an Idempotency-Key"):
 * the same key and the same request (method, URL, body) from the same caller within 24 h
 * returns the first response with `idempotent-replayed: true` and writes nothing; the same key
 * with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first is still running, 409
 * IDEMPOTENCY_IN_PROGRESS. Only successful (2xx) responses are kept: after a failure the key is
 * released so that a retry runs again. Kept in the database, so it holds across instances.
 *
 * Crash-safe (issue 22): the running request holds a lease on its key (renewed every third of
 * it). A request that died (kill -9) loses its lease; the next retry takes the key over: when
 * the dead request committed nothing it runs again, when it committed, its transactions are
 * replayed from the journal stamped inside them (not run again) and the original result is read
 * back (`idempotencyReplay` routes: every create but POST /api-keys, whose answer shows a secret
 * kept only hashed, so it answers 409 until the key expires). Nothing is
 * written twice. That recovered answer carries `idempotent-replayed: true` too (issue 48: before,
 * it answered 201 without it, so a client could not tell it from a fresh create); a 'rerun' route
 * runs its handler again and answers without it. `holdMs` (crash tests only) delays storing the response.
 */
export default fp<{ service: IdempotencyService; holdMs?: number }>(async (app, { service, holdMs = 0 }) => {
  app.decorateRequest('idempotency', null);
  // every request runs with a journal slot, filled in by the preHandler when it holds a key
  app.addHook('onRequest', (_req, _reply, done) => runWithJournalSlot(done));

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const responses = Object.keys((route.schema?.response as Record<string, unknown> | undefined) ?? {});
    const creates = methods.includes('POST') && (responses.includes('201') || responses.includes('202'));
    const config = (route.config ?? {}) as { idempotent?: boolean };
    if (config.idempotent === undefined && creates) route.config = { ...config, idempotent: true };
    if (route.config && (route.config as { idempotent?: boolean }).idempotent && route.schema) {
      // document the header on the operation (the OpenAPI generator reads schema.headers)
      const text =
        'Idempotency-Key: a unique value per create (e.g. a UUID). A retry with the same key and body within 24 h returns the first response and writes nothing.';
      route.schema.description = route.schema.description ? `${route.schema.description}\n\n${text}` : text;
    }
  });

  app.addHook('preHandler', async (req, reply) => {
    const config = req.routeOptions.config as { idempotent?: boolean; idempotencyReplay?: boolean | 'rerun' } | undefined;
    if (!config?.idempotent) return;
    const key = req.headers[IDEMPOTENCY_HEADER];
    if (key === undefined) return;
    if (typeof key !== 'string' || !KEY_RE.test(key)) throw new AppError('INVALID_IDEMPOTENCY_KEY');
    const scope = req.auth?.userId ?? (req.auth?.sessionId ? `session:${req.auth.sessionId}` : `ip:${req.ip}`);
    const hash = createHash('sha256')
      .update(`${req.method} ${req.url}\n`)
      .update(
        String(req.headers['content-type'] ?? '').startsWith('multipart/')
          ? `multipart ${req.headers['content-length'] ?? ''}`
          : JSON.stringify(req.body ?? null),
      )
      .digest('hex');
    const r = await service.begin(scope, key, hash);
    if (r.kind === 'mismatch') throw new AppError('IDEMPOTENCY_KEY_REUSED');
    if (r.kind === 'inProgress' || (r.kind === 'recover' && !config.idempotencyReplay)) throw new AppError('IDEMPOTENCY_IN_PROGRESS');
    if (r.kind === 'replay') {
      if (r.contentType) void reply.header('content-type', r.contentType);
      return reply.status(r.statusCode).header('idempotent-replayed', 'true').send(r.body);
    }
    const heartbeat = setInterval(() => void service.renew(scope, key).catch(() => undefined), (service.leaseSeconds * 1000) / 3);
    heartbeat.unref();
    const recovered = r.kind === 'recover' && config.idempotencyReplay === true;
    req.idempotency = { scope, key, heartbeat, recovered };
    setJournal({ scope, key, next: 0, replay: recovered ? r.journal : {} });
  });

  const stop = (req: { idempotency: { heartbeat: NodeJS.Timeout } | null }) => {
    if (req.idempotency) clearInterval(req.idempotency.heartbeat);
  };
  app.addHook('onResponse', async (req) => stop(req));
  app.addHook('onRequestAbort', async (req) => stop(req));

  app.addHook('onSend', async (req, reply, payload) => {
    const k = req.idempotency;
    if (!k) return payload;
    req.idempotency = null;
    setJournal(null);
    if (holdMs) await new Promise((r) => setTimeout(r, holdMs));
    clearInterval(k.heartbeat);
    if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
      // a recovered create answers what the crashed run committed: a replay, not a fresh create (issue 48)
      if (k.recovered) void reply.header('idempotent-replayed', 'true');
      const type = reply.getHeader('content-type');
      await service.finish(k.scope, k.key, reply.statusCode, typeof type === 'string' ? type : null, payload);
    } else await service.release(k.scope, k.key);
    return payload;
  });
});
