import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  RATE_ALERTS_MAX,
  RATE_ALERT_WINDOW_HOURS,
  createRateAlertBody,
  envelope,
  idParams,
  message,
  rateAlertList,
  rateAlertSchema,
  updateRateAlertBody,
} from '@masar/shared';

/**
 * Rate-change alerts (issue 20; spec §2 /rate-change-alerts, §3 "saved search and rate-change
 * alert"). An account's saved lanes with a threshold; the hourly job e-mails a crossing once.
 * docs/rate-forecast.md.
 */
export default async function alertsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.rateAlerts;
  const tags = ['rates'];
  const rule = `Every hour a job compares the lane's average SAR per trip (booked, non-outlier records, city→city, the equipment or all) of the last complete Riyadh day (the ${RATE_ALERT_WINDOW_HOURS}-hour window) with the day before; when the change reaches the threshold (in % of the day before, or in SAR) in the alert's direction (up, down or both), one e-mail goes to the alert's address in the account's language (event rate.alert_triggered), once per alert and window.`;

  app.get(
    '/rateAlerts',
    {
      config: { auth: 'user' },
      schema: { tags, summary: "My account's rate-change alerts, newest first", description: rule, response: { 200: envelope(rateAlertList) } },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: { items: await svc.list(app.requireUser(req)) } }),
  );

  app.post(
    '/rateAlerts',
    {
      config: { auth: 'user', idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Create a rate-change alert on a lane',
        description: `${rule} At most ${RATE_ALERTS_MAX} per account (409 LIMIT_REACHED); the same alert again (lane, equipment, kind, direction, threshold, unit) is 409 DUPLICATE_RATE_ALERT; INVALID_CITY (400) for an unknown city. Send an Idempotency-Key.`,
        body: createRateAlertBody,
        response: { 201: envelope(rateAlertSchema) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: message('rateAlerts.created', req.lang), data: await svc.create(app.requireUser(req), req.body) }),
  );

  app.patch(
    '/rateAlerts/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Pause or resume my rate-change alert, or change its threshold, direction or e-mail (404 if not mine)',
        params: idParams,
        body: updateRateAlertBody,
        response: { 200: envelope(rateAlertSchema) },
      },
    },
    async (req) => ({ message: message('rateAlerts.updated', req.lang), data: await svc.update(app.requireUser(req), req.params.id, req.body) }),
  );

  app.delete(
    '/rateAlerts/:id',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Delete my rate-change alert (404 if not mine)', params: idParams, response: { 200: envelope(z.null()) } },
    },
    async (req) => {
      await svc.remove(app.requireUser(req), req.params.id);
      return { message: message('rateAlerts.deleted', req.lang), data: null };
    },
  );
}
