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
  unreadCountSchema,
} from '@masar/shared';

/**
 * Stored notifications of the signed-in user (issue 21; spec §7 GET/PATCH /user/notification;
 * docs/notifications.md). `team: 'self'`: a team member reads and marks their own notifications.
 * The web polls the unread count on focus and every 60 s until the real-time channel (MQTT) lands.
 */
export default async function notificationsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.notifications;
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
          'Per category × channel (inApp, email, sms, push — inApp and email are delivered; sms and push are stored for later channels), quiet hours (Riyadh time; e-mails wait until they end) and the e-mail digest interval in minutes.',
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
}
