import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  envelope,
  idParams,
  vendorInput,
  vendorInviteInfo,
  vendorListQuery,
  vendorListResponse,
  vendorSchema,
  vendorShareLinkResponse,
  vendorUpdate,
  VENDOR_STATUSES,
  message,
} from '@masar/shared';
import { VENDOR_ROLES } from './vendors.service.ts';

const tokenParams = z.object({ token: z.string().min(10).max(1000) });

/** My vendors, share vendor link and vendor sign-up requests (issue 3; spec §2, §3, §4, §5). */
export default async function vendorsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.vendors;
  const auth = { auth: 'user' as const, roles: VENDOR_ROLES };
  const tags = ['vendors'];
  const data = { 200: envelope(vendorSchema) };

  app.get(
    '/vendors',
    {
      config: auth,
      schema: {
        tags,
        summary: 'My vendors (all states; filter by status, userType; search names, e-mail, phone)',
        querystring: vendorListQuery,
        response: { 200: envelope(vendorListResponse) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.list(app.requireUser(req), req.query) }),
  );
  app.post(
    '/vendors',
    {
      config: { ...auth, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Add a vendor',
        description: 'Errors: VENDOR_EMAIL_EXISTS, VENDOR_PHONE_EXISTS (per owner), INVALID_FILE.',
        body: vendorInput,
        response: { 201: envelope(vendorSchema) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: message('vendors.saved', req.lang), data: await svc.create(app.requireUser(req), req.body) }),
  );
  app.post(
    '/vendors/share-link',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Share vendor link: a public sign-up URL /vendor?invite=<token> (30 days)',
        response: { 200: envelope(vendorShareLinkResponse) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.shareLink(app.requireUser(req)) }),
  );
  app.get('/vendors/:id', { config: auth, schema: { tags, summary: 'A vendor of mine', params: idParams, response: data } }, async (req) => ({
    message: message('common.ok', req.lang),
    data: await svc.get(app.requireUser(req), req.params.id),
  }));
  app.patch(
    '/vendors/:id',
    { config: auth, schema: { tags, summary: 'Edit a vendor', params: idParams, body: vendorUpdate, response: data } },
    async (req) => ({
      message: message('vendors.saved', req.lang),
      data: await svc.update(app.requireUser(req), req.params.id, req.body),
    }),
  );
  app.delete(
    '/vendors/:id',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Delete a vendor',
        description: 'VENDOR_DELETE_FAILED when a live vehicle of mine is sourced from this vendor.',
        params: idParams,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await svc.remove(app.requireUser(req), req.params.id);
      return { message: message('vendors.deleted', req.lang), data: null };
    },
  );

  // public sign-up through the share link
  app.get(
    '/vendor-invites/:token',
    {
      config: { auth: 'none', rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { tags, summary: 'Public: the company behind a vendor link', params: tokenParams, response: { 200: envelope(vendorInviteInfo) } },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.inviteInfo(req.params.token) }),
  );
  app.post(
    '/vendor-invites/:token',
    {
      // crash-safe replay (issue 22): the request's transaction answers its vendor id
      config: { auth: 'none', rateLimit: { max: 10, timeWindow: '1 minute' }, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Public: submit a vendor sign-up request',
        description:
          'Creates a vendor of the inviting company in state request_submitted (documents are added once approved). INVALID_INVITE for a bad or expired link.',
        params: tokenParams,
        body: vendorInput,
        response: { 201: envelope(z.object({ id: z.uuid(), status: z.enum(VENDOR_STATUSES) })) },
      },
    },
    async (req, reply) =>
      reply.status(201).send({ message: message('vendors.requestSubmitted', req.lang), data: await svc.submitRequest(req.params.token, req.body) }),
  );

  // requests (the owner's side)
  app.get(
    '/vendor-requests',
    {
      config: auth,
      schema: {
        tags,
        summary: 'Vendor sign-up requests (request_submitted, pending_approval, not_verified)',
        querystring: vendorListQuery,
        response: { 200: envelope(vendorListResponse) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.list(app.requireUser(req), req.query, true) }),
  );
  for (const action of ['review', 'approve', 'reject'] as const) {
    app.post(
      `/vendor-requests/:id/${action}`,
      {
        config: auth,
        schema: {
          tags,
          summary: `${action[0].toUpperCase()}${action.slice(1)} a vendor request`,
          description: 'review → pending_approval; approve → verified; reject → not_verified. VENDOR_REQUEST_CLOSED when already handled.',
          params: idParams,
          response: data,
        },
      },
      async (req) => ({ message: message('vendors.statusUpdated', req.lang), data: await svc.act(app.requireUser(req), req.params.id, action) }),
    );
  }
}
