import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { isWebhookEvent } from '@masar/shared';
import type { WebhookDelivery, WebhookEndpoint, WebhookEventPayload, webhookCreateBody, webhookDeliveriesQuery, webhookUpdateBody } from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { lockAccountCap } from '../../lib/locks.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { namesPrivateHost, resolvesPublic } from '../../lib/public-host.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { recipientsOf, type EventHandler } from '../events/events.service.ts';
import * as repo from './webhooks.repository.ts';
import { signatureHeader, standardWebhookHeaders } from './webhooks.sign.ts';

/** At most this many endpoints per account. */
export const MAX_ENDPOINTS = 10;
/** A delivery is retried with backoff for this long after its event, then marked failed. */
export const RETRY_FOR_MS = 24 * 3_600_000;

/**
 * Webhooks may only reach the public internet over https (no SSRF into our own network), unless
 * WEBHOOKS_ALLOW_PRIVATE (development, tests). Checked when an endpoint is saved (URL) and again
 * before every send (DNS answers can change).
 */
function checkUrl(url: string, allowPrivate: boolean): void {
  const u = new URL(url);
  const bad = () => new AppError('VALIDATION_FAILED', { errors: [{ path: 'url', message: 'v.webhookHttps' }] });
  if (u.protocol !== 'https:' && !(allowPrivate && u.protocol === 'http:')) throw bad();
  if (u.username || u.password) throw bad();
  if (allowPrivate) return;
  if (namesPrivateHost(u)) throw bad();
}

const toEndpoint = (r: repo.EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  description: r.description,
  events: r.events as WebhookEndpoint['events'],
  active: r.active,
  createdAt: r.createdAt.toISOString(),
});
const toDelivery = (r: repo.DeliveryRow): WebhookDelivery => ({
  id: r.id,
  endpointId: r.endpointId,
  eventId: r.eventId,
  eventType: r.eventType as WebhookDelivery['eventType'],
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.status === 'pending' ? r.nextAttemptAt.toISOString() : null,
  lastStatusCode: r.lastStatusCode,
  lastResponse: r.lastResponse,
  lastError: r.lastError,
  createdAt: r.createdAt.toISOString(),
  deliveredAt: r.deliveredAt?.toISOString() ?? null,
});

/** Wake-ups after deliveries were queued again by a resend (the sender ticker subscribes). */
const queuedListeners = new Set<() => void>();
export function onDeliveriesQueued(fn: () => void): () => void {
  queuedListeners.add(fn);
  return () => queuedListeners.delete(fn);
}

/**
 * The outbox subscriber of webhooks: each event goes to the live endpoints, subscribed to its
 * type, of the accounts it is for (`recipientsOf`: the shipment's shipper, carrier and broker,
 * or the account of an account event). Runs in the drain's transaction; one delivery row per
 * (endpoint, event), so a redelivered event queues nothing twice.
 */
export const webhookFanout: EventHandler = {
  name: 'webhooks',
  async handle(tx, e) {
    // internal events (contact.message_received) are for no account and not subscribable
    if (!isWebhookEvent(e.type)) return;
    const { accounts } = await recipientsOf(tx, e);
    const endpoints = await repo.endpointsFor(
      tx,
      accounts.map((a) => a.userId),
      e.type,
    );
    if (!endpoints.length) return;
    const payload: WebhookEventPayload = {
      id: e.id,
      type: e.type,
      createdAt: e.createdAt.toISOString(),
      ...(e.aggregateType === 'load' ? { loadId: e.aggregateId } : {}),
      data: e.data,
    };
    await repo.insertDeliveries(
      tx,
      endpoints.map((ep) => ({ id: newId(), endpointId: ep.id, eventId: e.id, eventType: e.type, payload })),
    );
    // the outbox ticker wakes the sender once the drain has committed (jobs/definitions.ts)
  },
};

/**
 * Delete, inside the caller's transaction, the owner's webhook endpoints that `userId` made (a
 * team member removed or leaving; issue 22, modules/team) and fail their pending deliveries: the
 * member's receiver gets no further event of the owner. Returns how many endpoints.
 */
export async function removeEndpointsMadeBy(tx: DbOrTx, ownerId: string, userId: string): Promise<number> {
  return repo.removeEndpointsMadeBy(tx, ownerId, userId, 'not sent: the team member who added this endpoint left the team');
}

export interface WebhooksDeps {
  db: Db;
  allowPrivate: boolean;
  timeoutMs: number;
  /** First retry after this many seconds, doubling, at most an hour apart. */
  retryBaseSeconds?: number;
  log?: { error(o: unknown, m: string): void };
  /** In a create's transaction: the acting team member is still one (team.service assertStillActing). */
  stillActing?: (tx: DbOrTx, user: CurrentUser) => Promise<void>;
}

/**
 * Webhook endpoints of a user and the sender (issue 11). Deliveries are POSTs of the event as
 * JSON, signed (webhooks.sign.ts), sent head-of-line per endpoint so each receives events in
 * publish order, retried with backoff (a 2xx answer within the timeout is success; redirects are
 * not followed) for a day, every attempt logged; an owner can resend any delivery.
 */
export function createWebhooksService(deps: WebhooksDeps) {
  const { db } = deps;
  const base = deps.retryBaseSeconds ?? 30;
  const must = async (user: CurrentUser, id: string) => {
    const ep = await repo.getEndpoint(db, user.id, id);
    if (!ep) throw new AppError('NOT_FOUND');
    return ep;
  };

  async function sendOne(d: repo.DueDelivery): Promise<void> {
    const body = JSON.stringify(d.payload);
    const started = performance.now();
    let statusCode: number | null = null;
    let response: string | null = null;
    let error: string | null = null;
    try {
      if (!deps.allowPrivate && !(await resolvesPublic(d.url))) throw new Error('the endpoint resolves to a private address');
      const res = await fetch(d.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(deps.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Masar-Webhooks/1',
          'masar-event-id': d.event_id,
          'masar-event-type': d.event_type,
          'masar-delivery-id': d.id,
          'masar-signature': signatureHeader(d.secret, body),
          // Standard Webhooks (standardwebhooks.com): webhook-id is the event id, so a receiver
          // deduplicates redeliveries and resends of one event
          ...standardWebhookHeaders(d.secret, d.event_id, body),
        },
        body,
      });
      statusCode = res.status;
      response = (await res.text().catch(() => '')).slice(0, 1000) || null;
    } catch (e) {
      error = (e as Error).name === 'TimeoutError' ? `no answer within ${deps.timeoutMs} ms` : (e as Error).message.slice(0, 300);
    }
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const retryAt = new Date(Date.now() + Math.min(base * 2 ** d.attempts, 3600) * 1000);
    const givesUp = !ok && retryAt.getTime() - new Date(d.created_at).getTime() > RETRY_FOR_MS;
    await repo.recordAttempt(
      db,
      { id: newId(), deliveryId: d.id, statusCode, durationMs: Math.round(performance.now() - started), response, error },
      ok ? { status: 'succeeded', retryAt: null } : givesUp ? { status: 'failed', retryAt: null } : { status: 'pending', retryAt },
    );
  }

  return {
    async list(user: CurrentUser): Promise<WebhookEndpoint[]> {
      return (await repo.listEndpoints(db, user.id)).map(toEndpoint);
    },
    async create(user: CurrentUser, body: z.output<typeof webhookCreateBody>): Promise<WebhookEndpoint & { secret: string }> {
      checkUrl(body.url, deps.allowPrivate);
      // count and insert under the owner's cap lock: 50 parallel creations end at MAX_ENDPOINTS (issue 22).
      // The secret is made inside the transaction and the row (with it) is its result: a retry of a
      // request that died after this commit replays the row (Idempotency-Key journal) and answers
      // the same secret (it is kept on the endpoint anyway: GET /webhooks/:id/secret).
      const row = await db.transaction(async (tx) => {
        await lockAccountCap(tx, 'webhooks', user.id);
        await deps.stillActing?.(tx, user);
        if ((await repo.countEndpoints(tx, user.id)) >= MAX_ENDPOINTS) throw new AppError('LIMIT_REACHED');
        // whsec_ + standard base64 of 24 random bytes: the Standard Webhooks secret format
        const secret = `whsec_${randomBytes(24).toString('base64')}`;
        return repo.insertEndpoint(tx, {
          id: newId(),
          ownerId: user.id,
          url: body.url,
          description: body.description ?? null,
          events: [...new Set(body.events)],
          secret,
          createdBy: user.actorId ?? user.id,
        });
      });
      return { ...toEndpoint(row), secret: row.secret };
    },
    async update(user: CurrentUser, id: string, body: z.output<typeof webhookUpdateBody>): Promise<WebhookEndpoint> {
      await must(user, id);
      if (body.url) checkUrl(body.url, deps.allowPrivate);
      await repo.updateEndpoint(db, id, {
        ...(body.url ? { url: body.url } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.events ? { events: [...new Set(body.events)] } : {}),
        ...(body.active !== undefined ? { active: body.active } : {}),
      });
      return toEndpoint(await must(user, id));
    },
    async secret(user: CurrentUser, id: string): Promise<WebhookEndpoint & { secret: string }> {
      const ep = await must(user, id);
      return { ...toEndpoint(ep), secret: ep.secret };
    },
    async remove(user: CurrentUser, id: string): Promise<void> {
      await must(user, id);
      await repo.updateEndpoint(db, id, { deletedAt: new Date(), active: false });
    },
    async deliveries(user: CurrentUser, id: string, q: z.output<typeof webhookDeliveriesQuery>): Promise<WebhookDelivery[]> {
      await must(user, id);
      return (await repo.listDeliveries(db, id, q)).map(toDelivery);
    },
    /** Send a delivery again (the receiver lost it, or it failed for good). */
    async resend(user: CurrentUser, deliveryId: string): Promise<WebhookDelivery> {
      const d = await repo.ownedDelivery(db, user.id, deliveryId);
      if (!d) throw new AppError('NOT_FOUND');
      await repo.requeue(db, deliveryId);
      for (const fn of queuedListeners) setTimeout(fn, 0);
      return toDelivery((await repo.ownedDelivery(db, user.id, deliveryId))!);
    },
    /** Daily: the delivery log keeps finished deliveries for 30 days. */
    async cleanup(now = new Date()): Promise<number> {
      const before = new Date(now.getTime() - 30 * 86_400_000);
      let total = 0;
      for (;;) {
        const n = await repo.deleteFinishedBefore(db, before);
        total += n;
        if (n === 0) return total;
      }
    },
    /**
     * The sender's tick: claim the due head delivery of each endpoint (on any instance), send
     * them in parallel, and go on with the next heads until nothing is due.
     */
    async deliverDue(batch = 20): Promise<number> {
      let sent = 0;
      for (;;) {
        const due = await repo.claimDue(db, batch, Math.ceil(deps.timeoutMs / 1000) + 30);
        await Promise.all(due.map((d) => sendOne(d).catch((err: unknown) => deps.log?.error({ err, deliveryId: d.id }, 'webhook delivery failed'))));
        sent += due.length;
        if (due.length === 0) return sent;
      }
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
