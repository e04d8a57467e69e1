import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LOAD_TRANSITIONS } from '@masar/shared';
import docsPlugin, { errorCodesFor, lifecycleMarkdown, operationIdFor } from './docs.ts';

describe('OpenAPI helpers', () => {
  it('derives unique, URL-safe operation ids', () => {
    expect(operationIdFor('GET', '/api/v1/loads/:id/timeline')).toBe('getLoadsByIdTimeline');
    expect(operationIdFor('POST', '/api/v1/webhook-deliveries/:id/resend')).toBe('postWebhookDeliveriesByIdResend');
    expect(operationIdFor('DELETE', '/api/v1/api-keys/:id')).toBe('deleteApiKeysById');
  });

  it('lists the error codes a route can return, by status', () => {
    const codes = errorCodesFor(
      {
        method: 'POST',
        url: '/api/v1/offers',
        config: { auth: 'user', roles: [2], approved: true, plan: true },
        schema: { tags: ['offers'], description: 'Errors: OWN_LOAD_BID, DUPLICATE_OFFER.' },
      },
      201,
    );
    expect(codes.get(400)).toContain('VALIDATION_FAILED');
    expect(codes.get(401)).toEqual(expect.arrayContaining(['UNAUTHORIZED', 'API_KEY_INVALID']));
    expect(codes.get(403)).toEqual(expect.arrayContaining(['WRONG_ROLE', 'ACCOUNT_NOT_APPROVED', 'PLAN_REQUIRED', 'API_KEY_SCOPE']));
    expect(codes.get(409)).toEqual(expect.arrayContaining(['DUPLICATE_OFFER', 'IDEMPOTENCY_IN_PROGRESS']));
    expect(codes.get(422)).toEqual(['IDEMPOTENCY_KEY_REUSED']);
    const open = errorCodesFor({ method: 'GET', url: '/api/v1/cities', config: { auth: 'none' }, schema: { tags: ['reference'] } }, 200);
    expect([...open.keys()]).toEqual([400]);
  });
});

describe('the state machine in the docs', () => {
  it('prints every transition the services enforce, with its event', () => {
    const md = lifecycleMarkdown();
    expect(md).toContain('| assigned | `bayan_requested` | pending_bayan |');
    expect(md).toContain('| pending_bayan | `bayan_created` | assigned |');
    expect(md).toContain('`load.bayan_closed`');
    const rows = md.split('\n').filter((l) => /^\| [a-z_, ]+ \| `/.test(l));
    expect(rows.length).toBeGreaterThanOrEqual(LOAD_TRANSITIONS.length);
  });
});

describe('deprecated operations', () => {
  it('keep working and say so in a Deprecation header, with their successor', async () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(docsPlugin);
    app.get(
      '/api/v1/old',
      {
        schema: { tags: ['loads'], summary: 'Old', deprecated: true, 'x-successor': '/api/v1/new', response: { 200: z.object({ ok: z.boolean() }) } } as never,
      },
      async () => ({ ok: true }),
    );
    app.get('/api/v1/new', { schema: { tags: ['loads'], summary: 'New' } }, async () => ({ ok: true }));
    await app.ready();
    const old = await app.inject({ url: '/api/v1/old' });
    expect(old.statusCode).toBe(200);
    expect(old.headers.deprecation).toBe('true');
    expect(old.headers.link).toBe('</api/v1/new>; rel="successor-version"');
    expect((await app.inject({ url: '/api/v1/new' })).headers.deprecation).toBeUndefined();
    const doc = app.swagger() as { paths: Record<string, { get: { deprecated?: boolean } }> };
    expect(doc.paths['/api/v1/old'].get.deprecated).toBe(true);
    await app.close();
  });
});
