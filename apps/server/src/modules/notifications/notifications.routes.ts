import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  envelope,
  markNotificationsBody,
  markNotificationsResult,
  message,
  notificationList,
  notificationListQuery,
  notificationPreferencesSchema,
  pushTopicBody,
  pushTopicResult,
  unreadCountSchema,
  vapidPublicKeySchema,
} from '@masar/shared';

/**
 * Stored notifications of the signed-in user (issue 21; spec §7 GET/PATCH /user/notification;
 * docs/notifications.md). `team: 'self'`: a team member reads and marks their own notifications.
 * The web polls the unread count on focus and every 60 s until the real-time channel (MQTT) lands.
 */
export default async function notificationsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.notifications;
  const pushSvc = app.container.services.push;
  const tags = ['notifications'];

  app.get(
    '/user/notification',
    {
      config: { auth: 'user', team: 'self' },
      schema: {
        tags,
        summary: 'My notifications, newest first (cursor paging)',
        description:
          'Pages of `limit` (default 20) by id descending; pass `nextCursor` as `cursor` for the next page (null at the end). `unread=1`: only unread; `category`: offers, shipments, bayan, trips, tenders, account or billing. ' +
          '`unread` in the answer is my unread count. The text is rendered by the client from `type` and `params` (docs/notifications.md).',
        querystring: notificationListQuery,
        response: { 200: envelope(notificationList) },
      },
    },
    async (req) => {
      const q = req.query;
      const data = await svc.list(app.requireUser(req).id, {
        cursor: q.cursor,
        unreadOnly: q.unread === '1' || q.unread === 'true',
        category: q.category,
        limit: q.limit,
      });
      return { message: message('common.ok', req.lang), data };
    },
  );

  app.get(
    '/user/notification/unread-count',
    {
      config: { auth: 'user', team: 'self' },
      schema: {
        tags,
        summary: 'My unread notification count',
        description: 'A counter kept with the rows (no count over the list).',
        response: { 200: envelope(unreadCountSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: { unread: await svc.unreadCount(app.requireUser(req).id) } }),
  );

  app.patch(
    '/user/notification',
    {
      config: { auth: 'user', team: 'self' },
      schema: {
        tags,
        summary: 'Mark my notifications read',
        description:
          'Body `{ids: [...]}` (up to 100; ids that are not mine or already read are ignored) or `{all: true}`. Answers how many were marked and my unread count after.',
        body: markNotificationsBody,
        response: { 200: envelope(markNotificationsResult) },
      },
    },
    async (req) => ({ message: message('notifications.marked', req.lang), data: await svc.mark(app.requireUser(req).id, req.body) }),
  );

  app.get(
    '/user/notification/preferences',
    {
      config: { auth: 'user', team: 'self' },
      schema: {
        tags,
        summary: 'My notification preferences',
        description:
          'Per category × channel (inApp, email, sms, push — inApp, email and push (web push to the browsers subscribed with /topics/subscribe) are delivered; sms is stored for a later channel), quiet hours (Riyadh time; e-mails and pushes wait until they end) and the e-mail digest interval in minutes.',
        response: { 200: envelope(notificationPreferencesSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.preferences(app.requireUser(req).id) }),
  );

  app.put(
    '/user/notification/preferences',
    {
      config: { auth: 'user', team: 'self' },
      schema: {
        tags,
        summary: 'Save my notification preferences',
        description:
          'The whole preferences (every category). sms stays off for categories without an SMS-worthy event (only offers, shipments, bayan offer it). Errors: VALIDATION_FAILED.',
        body: notificationPreferencesSchema,
        response: { 200: envelope(notificationPreferencesSchema) },
      },
    },
    async (req) => ({ message: message('notifications.preferencesSaved', req.lang), data: await svc.savePreferences(app.requireUser(req).id, req.body) }),
  );

  // Web push (spec §7 /topics/subscribe, /topics/unsubscribe; docs/notifications.md "Web push")

  app.get(
    '/push/vapid-public-key',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'The VAPID public key for web push',
        description: 'The application server key a browser passes to PushManager.subscribe (base64url, uncompressed P-256). Public.',
        response: { 200: envelope(vapidPublicKeySchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: { publicKey: pushSvc.publicKey() } }),
  );

  app.post(
    '/topics/subscribe',
    {
      config: { auth: 'user', team: 'self', sessionOnly: true },
      schema: {
        tags,
        summary: "Subscribe this browser to my account's push topic",
        description:
          "Body `{token, topic}` (spec §7): `token` is the browser's push subscription (PushSubscription.toJSON(): `endpoint`, `keys.p256dh`, `keys.auth`), `topic` the profile's `fcmTopic` (`user_<account id>`; a team member's is the owner's account). " +
          'The browser then receives a web push for each notification of a category with push on. An upsert on the endpoint (calling it again is harmless; a browser moves to whoever subscribes it last), so no Idempotency-Key. ' +
          'Errors: VALIDATION_FAILED (an endpoint that is not https to a public host, bad keys, a topic that is not my account).',
        body: pushTopicBody,
        response: { 200: envelope(pushTopicResult) },
      },
    },
    async (req) => ({
      message: message('notifications.pushSubscribed', req.lang),
      data: await pushSvc.subscribe(app.requireUser(req).id, req.body, req.headers['user-agent'] ?? null),
    }),
  );

  app.post(
    '/topics/unsubscribe',
    {
      config: { auth: 'user', team: 'self', sessionOnly: true },
      schema: {
        tags,
        summary: "Unsubscribe this browser from an account's push topic",
        description:
          'Body `{token, topic}` as for subscribe. Removes my subscription of this browser for that topic (none: nothing happens). The web calls it when push is switched off, before logout and when the topic changes.',
        body: pushTopicBody,
        response: { 200: envelope(pushTopicResult) },
      },
    },
    async (req) => ({ message: message('notifications.pushUnsubscribed', req.lang), data: await pushSvc.unsubscribe(app.requireUser(req).id, req.body) }),
  );
}
