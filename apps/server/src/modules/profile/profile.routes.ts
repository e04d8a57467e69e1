import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  businessProfileInput,
  businessProfileSchema,
  contactInfoInput,
  contactInfoSchema,
  envelope,
  idParams,
  savedAddressInput,
  savedAddressListSchema,
  savedAddressSchema,
  message,
} from '@masar/shared';

/**
 * The account area (issue 8; spec §2 "Account", §3, §5): business profile, contact info to share,
 * address book. Signed-in users only (a pending account too); everything is the caller's own.
 */
export default async function profileRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.profile;
  const config = { auth: 'user' as const, sessionOnly: true };
  const tags = ['account'];

  app.get(
    '/account/business-profile',
    { config, schema: { tags, summary: 'My business profile', response: { 200: envelope(businessProfileSchema) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.businessProfile(app.requireUser(req)) }),
  );
  app.put(
    '/account/business-profile',
    {
      config,
      schema: {
        tags,
        summary: 'Save my business profile',
        description:
          'Replaces the profile; omitted optional fields are cleared. CR 10 digits, VAT 15 digits starting with 3, fax 7 digits, website an http(s) URL, logo a PNG/JPG uploaded with POST /files purpose business-logo, address as the post form (spec §3 Address). VALIDATION_FAILED (400) with localized field messages.',
        body: businessProfileInput,
        response: { 200: envelope(businessProfileSchema) },
      },
    },
    async (req) => ({ message: message('profile.profileSaved', req.lang), data: await svc.putBusinessProfile(app.requireUser(req), req.body) }),
  );

  app.get(
    '/account/contact-info',
    { config, schema: { tags, summary: 'Contact info I share with the other party of a booking', response: { 200: envelope(contactInfoSchema) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.contactInfo(app.requireUser(req)) }),
  );
  app.put(
    '/account/contact-info',
    {
      config,
      schema: {
        tags,
        summary: 'Save the contact info I share',
        description: 'phone, email, whatsapp, officePhone: each `{ value, share }`. A shared channel needs a value (v.required).',
        body: contactInfoInput,
        response: { 200: envelope(contactInfoSchema) },
      },
    },
    async (req) => ({ message: message('profile.contactSaved', req.lang), data: await svc.putContactInfo(app.requireUser(req), req.body) }),
  );

  app.get(
    '/account/addresses',
    { config, schema: { tags, summary: 'My address book (at most 200, labels A→Z)', response: { 200: envelope(savedAddressListSchema) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.addresses(app.requireUser(req)) }),
  );
  app.post(
    '/account/addresses',
    {
      config: { ...config, idempotencyReplay: true },
      schema: {
        tags,
        summary: 'Save an address to my address book',
        description: 'Idempotency-Key: a retried request saves once. lat/lng come from the city. LIMIT_REACHED (409) at 200 addresses.',
        body: savedAddressInput,
        response: { 201: envelope(savedAddressSchema) },
      },
    },
    async (req, reply) =>
      reply.status(201).send({ message: message('profile.addressSaved', req.lang), data: await svc.addAddress(app.requireUser(req), req.body) }),
  );
  app.get(
    '/account/addresses/:id',
    { config, schema: { tags, summary: 'One saved address of mine', params: idParams, response: { 200: envelope(savedAddressSchema) } } },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.address(app.requireUser(req), req.params.id) }),
  );
  app.put(
    '/account/addresses/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Replace a saved address of mine',
        description: 'NOT_FOUND (404) when the address is not mine.',
        params: idParams,
        body: savedAddressInput,
        response: { 200: envelope(savedAddressSchema) },
      },
    },
    async (req) => ({ message: message('profile.addressSaved', req.lang), data: await svc.updateAddress(app.requireUser(req), req.params.id, req.body) }),
  );
  app.delete(
    '/account/addresses/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a saved address of mine',
        description: 'NOT_FOUND (404) when the address is not mine.',
        params: idParams,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await svc.deleteAddress(app.requireUser(req), req.params.id);
      return { message: message('profile.addressDeleted', req.lang), data: null };
    },
  );
}
