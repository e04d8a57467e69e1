import type { Agent } from 'node:https';
import webpush from 'web-push';
import type { Language, PushPayload, PushTopicBody } from '@masar/shared';
import type { Db } from '../../db/client.ts';
import type { VapidKeys } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { namesPrivateHost, resolvesPublic } from '../../lib/public-host.ts';
import { CATEGORY, WHAT } from './notifications.email.ts';
import * as repo from './notifications.repository.ts';
import * as push from './push.repository.ts';

/*
 * Web push (issue 21; spec §7 /topics/subscribe, /topics/unsubscribe; docs/notifications.md
 * "Web push"). Browsers subscribe with the VAPID public key; the notifications outbox handler
 * queues a push per (event, user) whose category has push on and who has a subscribed browser
 * (notification_pushes, due after the quiet hours); this sender — a ticker woken after the outbox
 * drain, never a request — encrypts each (aes128gcm, RFC 8291) and posts it to every browser of
 * that user and account with web-push. A push service answering 404 or 410 means the browser's
 * subscription is gone: it is deleted. Other failures are logged (status and push service host
 * only: never the endpoint's token or the keys) and retried with backoff, five attempts in all.
 */

/** A failed push is tried this many times in all. */
export const PUSH_MAX_ATTEMPTS = 5;
/** How long a push service keeps a push for an offline browser (seconds). */
const PUSH_TTL_SECONDS = 24 * 3600;

const money = (v: string | number, lang: Language) => {
  const n = Number(v);
  if (!Number.isFinite(n)) return String(v);
  const s = new Intl.NumberFormat(lang === 'ar' ? 'ar-SA' : 'en-SA', { maximumFractionDigits: 2 }).format(n);
  return lang === 'ar' ? `${s} ر.س` : `SAR ${s}`;
};

/**
 * The title and body of a push in `lang`: the title says what happened (the e-mail's wording),
 * the body names the shipment reference and the price when there is one, else the category.
 */
export function pushText(
  n: { type: string; category: string; referenceId: string | null; params: Record<string, string | number> },
  lang: Language,
): { title: string; body: string } {
  const cat = CATEGORY[n.category]?.[lang] ?? n.category;
  const title = WHAT[n.type]?.[lang] ?? cat;
  const price = n.params.priceSar ?? n.params.amountSar;
  const parts = [n.referenceId, price !== undefined ? money(price, lang) : null].filter((x): x is string => Boolean(x));
  return { title, body: parts.length ? parts.join(' · ') : cat };
}

/** The push tag: a newer push about the same shipment (or the same type) replaces the older on the device. */
export const pushTag = (n: { category: string; type: string; loadId: string | null }) => `masar:${n.category}:${n.loadId ?? n.type}`;

/** Push service host, for logs (the endpoint path is a capability token: never logged). */
const hostOfEndpoint = (endpoint: string) => {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'invalid';
  }
};

export interface PushDeps {
  db: Db;
  vapid: VapidKeys;
  /** PUSH_ALLOW_PRIVATE: http and private hosts allowed (tests with a local push service). */
  allowPrivate: boolean;
  /** The account a user acts for (a team member: the owner's; else their own). */
  accountOf: (userId: string) => Promise<string>;
  log: { error(o: unknown, m: string): void; info(o: unknown, m: string): void };
  /** An https agent for the push requests (tests: one that trusts the local push service's certificate). */
  agent?: Agent;
  /** Socket timeout of a push request, ms. */
  timeoutMs?: number;
}

export function createPushService(deps: PushDeps) {
  const { db } = deps;
  const vapidDetails = { subject: deps.vapid.subject, publicKey: deps.vapid.publicKey, privateKey: deps.vapid.privateKey };

  function checkEndpoint(endpoint: string) {
    const u = new URL(endpoint);
    const bad = () => new AppError('VALIDATION_FAILED', { errors: [{ path: 'token.endpoint', message: 'v.pushEndpoint' }] });
    if (u.protocol !== 'https:' && !(deps.allowPrivate && u.protocol === 'http:')) throw bad();
    if (u.username || u.password) throw bad();
    if (!deps.allowPrivate && namesPrivateHost(u)) throw bad();
  }

  /** The topic must be the account the user acts for (profile.fcmTopic): nobody follows another account's pushes. */
  async function accountOfTopic(userId: string, topic: string): Promise<string> {
    const accountId = await deps.accountOf(userId);
    if (topic !== `user_${accountId}`) throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'topic', message: 'v.pushTopic' }] });
    return accountId;
  }

  /** Send one push to one browser; what became of it. */
  async function sendTo(sub: push.SubscriptionRow, payload: PushPayload): Promise<'sent' | 'gone' | 'failed'> {
    if (!deps.allowPrivate && !(await resolvesPublic(sub.endpoint).catch(() => false))) {
      deps.log.error({ pushService: hostOfEndpoint(sub.endpoint) }, 'push: the endpoint resolves to a private address; subscription removed');
      return 'gone';
    }
    try {
      await webpush.sendNotification({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, JSON.stringify(payload), {
        vapidDetails,
        TTL: PUSH_TTL_SECONDS,
        contentEncoding: 'aes128gcm',
        urgency: 'normal',
        timeout: deps.timeoutMs ?? 10_000,
        ...(deps.agent ? { agent: deps.agent } : {}),
      });
      return 'sent';
    } catch (err) {
      const status = err instanceof webpush.WebPushError ? err.statusCode : null;
      if (status === 404 || status === 410) return 'gone';
      // never the error object itself: a WebPushError carries the endpoint (its token) and the request
      deps.log.error(
        { pushService: hostOfEndpoint(sub.endpoint), status, error: status === null && err instanceof Error ? err.message.slice(0, 200) : undefined },
        'push: send failed',
      );
      return 'failed';
    }
  }

  return {
    /** The VAPID public key browsers subscribe with (base64url). */
    publicKey: () => deps.vapid.publicKey,

    /**
     * This browser receives the pushes of the account `topic` for the signed-in user (an upsert on
     * the endpoint: a browser moves to whoever subscribes it last). Errors: VALIDATION_FAILED
     * (an endpoint that is not https to a public host; a topic that is not the user's account).
     */
    async subscribe(userId: string, body: PushTopicBody, userAgent: string | null) {
      checkEndpoint(body.token.endpoint);
      const accountId = await accountOfTopic(userId, body.topic);
      await push.upsertSubscription(db, {
        id: newId(),
        endpoint: body.token.endpoint,
        p256dh: body.token.keys.p256dh,
        auth: body.token.keys.auth,
        userId,
        accountId,
        userAgent: userAgent ? userAgent.slice(0, 300) : null,
      });
      return { subscribed: true, topic: body.topic };
    },

    /** This browser no longer receives the pushes of `topic` (only the user's own subscription is removed; none: nothing happens). */
    async unsubscribe(userId: string, body: PushTopicBody) {
      // a topic that is no longer the user's (they left a team) still unsubscribes what they own
      const m = /^user_(.+)$/.exec(body.topic);
      await push.deleteSubscription(db, body.token.endpoint, userId, m ? m[1] : '00000000-0000-0000-0000-000000000000');
      return { subscribed: false, topic: body.topic };
    },

    /**
     * Send the due pushes (the `push` ticker): claim up to `batch` at a time; each goes to every
     * browser of its (user, account) in the user's language; gone browsers (404/410) are deleted;
     * a push that failed on some browser is retried after 30 s × 2^attempts until
     * PUSH_MAX_ATTEMPTS. Done pushes older than two days are pruned. Returns how many pushes
     * reached at least one browser.
     */
    async sendDue(now = new Date(), batch = 50): Promise<number> {
      await push.pruneSentPushes(db, new Date(now.getTime() - 2 * 86_400_000));
      let reached = 0;
      for (;;) {
        const due = await push.claimDuePushes(db, now, batch, 120);
        if (!due.length) return reached;
        const users = await repo.usersInfo(
          db,
          due.map((d) => d.user_id),
        );
        await Promise.all(
          due.map(async (d) => {
            const lang: Language = users.get(d.user_id)?.language === 'ar' ? 'ar' : 'en';
            const n = { type: d.type, category: d.category, referenceId: d.reference_id, params: d.params ?? {}, loadId: d.load_id };
            const payload: PushPayload = { ...pushText(n, lang), url: d.link, tag: pushTag(n), id: d.id, lang };
            const subs = await push.subscriptionsOf(db, d.user_id, d.account_id);
            let failed = false;
            let sent = false;
            for (const s of subs) {
              const r = await sendTo(s, payload);
              if (r === 'sent') {
                sent = true;
                await push.markSubscriptionSuccess(db, s.id);
              } else if (r === 'gone') await push.deleteSubscriptionById(db, s.id);
              else failed = true;
            }
            if (sent) reached++;
            if (failed && d.attempts < PUSH_MAX_ATTEMPTS) await push.retryPushAt(db, d.id, new Date(Date.now() + 30_000 * 2 ** (d.attempts - 1)));
            else await push.markPushSent(db, d.id);
          }),
        );
        if (due.length < batch) return reached;
      }
    },
  };
}
export type PushService = ReturnType<typeof createPushService>;
