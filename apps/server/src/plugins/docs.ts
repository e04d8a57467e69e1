import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_KEY_HEADER,
  DOMAIN_EVENTS,
  ERRORS,
  errorBodySchema,
  errorMessage,
  LOAD_ACTION_EVENT,
  LOAD_TRANSITIONS,
  OFFER_TRANSITIONS,
  webhookBodyOf,
  WEBHOOK_EVENT_TYPES,
  type ErrorCode,
} from '@masar/shared';
import type { AccessRules } from './auth.ts';
import { apiKeyScopeFor } from './auth.ts';

/**
 * The shipment and offer state machine (packages/shared rules/lifecycle.ts) as Markdown tables:
 * the docs print the same table the services enforce.
 */
export function lifecycleMarkdown(): string {
  const loads = LOAD_TRANSITIONS.map((t) => `| ${t.from.join(', ')} | \`${t.action}\` | ${t.to} | ${t.by} | \`${LOAD_ACTION_EVENT[t.action]}\` |`);
  const offers = OFFER_TRANSITIONS.map((t) => `| ${t.from.join(', ')} | \`${t.action}\` | ${t.to} | ${t.by} |`);
  return [
    'Shipment statuses change only as this table allows (INVALID_TRANSITION otherwise); each change is an event on the shipment timeline.',
    '',
    '| from | action | to | by | event |',
    '|---|---|---|---|---|',
    ...loads,
    '',
    'Offers:',
    '',
    '| from | action | to | by |',
    '|---|---|---|---|',
    ...offers,
  ].join('\n');
}

/** The areas of the API, in the order the docs show them. */
const TAGS = [
  { name: 'auth', description: 'Sign-up, sign-in (password or one-time code), tokens, the account.' },
  { name: 'reference', description: 'Saudi regions, cities, districts, goods and equipment types (public).' },
  { name: 'loads', description: `Post, edit and search loads (shipments); my loads; a load’s timeline.\n\n${lifecycleMarkdown()}` },
  { name: 'offers', description: 'Bids, counter offers, accepting (booking) and withdrawing.' },
  {
    name: 'trucks',
    description: 'Truck posts (capacity): post, edit, unpost, repost, duplicate, delete; the truck board search; matching trucks with loads both ways.',
  },
  {
    name: 'tenders',
    description:
      'Tendering a load to chosen carriers (broadcast or waterfall) with a deadline and a target rate; answers (accept, counter, decline) side by side; awarding books the load.',
  },
  { name: 'assignment', description: 'Assigning a vehicle with its driver and trailer to a booked shipment; completing one that needs no Bayan.' },
  { name: 'fleet', description: 'Vehicles, trailers, drivers, trusted drivers, assignment readiness.' },
  { name: 'vendors', description: 'Transport vendors, the vendor sign-up link and requests.' },
  { name: 'csv', description: 'CSV import (a resumable job) and export of fleet, vendors and shipments.' },
  { name: 'files', description: 'Uploaded documents and images (PDF, JPG, PNG ≤ 5 MB).' },
  { name: 'verification', description: 'Business verification: documents, review and the operator’s decision (profile approval).' },
  { name: 'account', description: 'The account area: business profile, contact info to share, address book used by the post form.' },
  { name: 'chat', description: 'Chat about a load between its shipper or broker and a carrier: conversations, messages, unread counts, read receipts.' },
  { name: 'team', description: 'Team members: invite colleagues by phone with a role (admin, dispatcher, viewer); invitations; leaving a team.' },
  { name: 'billing', description: 'Plans, checkout, saved cards, promo codes, wallet and VAT invoices (SAR, 15% VAT, ZATCA QR).' },
  { name: 'integrations', description: 'API keys and signed webhooks for integrators (docs/api.md).' },
  { name: 'public', description: 'The public website: the contact form (no sign-in; limited per IP).' },
];

const ERROR_JSON_SCHEMA = z.toJSONSchema(errorBodySchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
delete ERROR_JSON_SCHEMA.$schema;

const header = (name: string, description: string) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } });
/**
 * The OpenAPI 3.1 `webhooks` section: one entry per webhook event (packages/shared events.ts
 * WEBHOOK_EVENT_TYPES: the domain events with account parties),
 * the body Masar POSTs with `data` typed by the event's payload schema, and the signature
 * headers (docs/api.md "Verifying webhooks").
 */
export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => {
      const spec = DOMAIN_EVENTS[type];
      const schema = z.toJSONSchema(webhookBodyOf(type), { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
      delete schema.$schema;
      return [
        type,
        {
          post: {
            operationId: `webhook${type.replace(/(^|[._])(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`,
            summary: type,
            description: `${spec.when}\n\nParties: ${spec.parties}. Subscribe an endpoint to \`${type}\` (POST /api/v1/webhooks). Payloads may carry more fields than named here: ignore unknown fields.`,
            tags: ['integrations'],
            security: [],
            parameters: [
              header('webhook-id', 'Standard Webhooks: the event id (the same on every retry and resend: deduplicate on it).'),
              header('webhook-timestamp', 'Standard Webhooks: unix seconds of this attempt.'),
              header(
                'webhook-signature',
                'Standard Webhooks: `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the base64-decoded `whsec_` secret.',
              ),
              header('masar-signature', '`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` (the original scheme, kept).'),
              header('masar-event-id', 'The event id.'),
              header('masar-event-type', 'The event type.'),
            ],
            requestBody: { required: true, content: { 'application/json': { schema } } },
            responses: {
              '200': {
                description: 'Received. Any 2xx within the timeout is success; anything else is retried with backoff for a day, in order per endpoint.',
              },
            },
          },
        },
      ];
    }),
  );
}

/** `get /api/v1/loads/:id/timeline` → `getLoadsByIdTimeline`: unique, URL-safe, stable. */
export function operationIdFor(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/v\d+\//, '')
    .split('/')
    .filter(Boolean)
    .flatMap((seg) => (seg.startsWith(':') ? ['by', seg.slice(1)] : seg.split(/[-_]/)))
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join('');
}

/**
 * The error responses an operation can give, by status, with their codes from the shared
 * catalogue: the ones every request can meet (validation, authentication, rules of the route's
 * access config, idempotency on creates, rate limits) and the domain codes its description names.
 */
export function errorCodesFor(route: Pick<RouteOptions, 'method' | 'url' | 'config' | 'schema'>, successStatus: number): Map<number, ErrorCode[]> {
  const rules = (route.config ?? {}) as AccessRules & { rateLimit?: unknown };
  const method = String(route.method).toUpperCase();
  const codes = new Set<ErrorCode>(['VALIDATION_FAILED', 'BAD_REQUEST', 'BAD_URL']);
  if (method !== 'GET' && method !== 'DELETE') codes.add('INVALID_JSON').add('UNSUPPORTED_MEDIA_TYPE').add('PAYLOAD_TOO_LARGE');
  if (rules.auth === 'none' && rules.acceptKey) codes.add('UNAUTHORIZED').add('API_KEY_INVALID').add('API_KEY_SCOPE');
  if (rules.auth !== 'none') {
    codes.add('UNAUTHORIZED').add('TOKEN_EXPIRED');
    if (apiKeyScopeFor(route.schema?.tags, method) !== null && !rules.sessionOnly) codes.add('API_KEY_INVALID').add('API_KEY_SCOPE');
    else codes.add('API_KEY_NOT_ALLOWED');
  }
  if (rules.auth === 'user' || rules.roles || rules.approved || rules.plan) codes.add('NOT_SIGNED_IN').add('ACCOUNT_SUSPENDED').add('ACCOUNT_DELETED');
  if (rules.roles) codes.add('WRONG_ROLE');
  if (rules.approved) codes.add('ACCOUNT_NOT_APPROVED');
  if (rules.plan) codes.add('PLAN_REQUIRED');
  if (String(route.url).includes('/:')) codes.add('NOT_FOUND');
  if (method === 'POST' && (successStatus === 201 || successStatus === 202))
    codes.add('INVALID_IDEMPOTENCY_KEY').add('IDEMPOTENCY_KEY_REUSED').add('IDEMPOTENCY_IN_PROGRESS');
  if (rules.rateLimit || rules.auth !== 'none') codes.add('RATE_LIMITED');
  const text = `${String(route.schema?.description ?? '')} ${String(route.schema?.summary ?? '')}`;
  for (const m of text.matchAll(/\b[A-Z][A-Z0-9_]{3,}\b/g)) if (m[0] in ERRORS) codes.add(m[0] as ErrorCode);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of codes) {
    const status = ERRORS[c].status;
    if (status < 400) continue;
    byStatus.set(status, [...(byStatus.get(status) ?? []), c]);
  }
  return byStatus;
}

/**
 * OpenAPI document generated from the shared zod schemas; UI at /api/docs, JSON at
 * /api/docs/json. Every operation gets an operationId, its security (bearer token; API key where
 * a key may be used; none on public routes) and its error responses with the shared envelope and
 * the codes it can return (issue 11).
 */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      // path items built by hand (plain objects): swagger passes them through as they are
      webhooks: webhooksSection() as never,
      info: {
        title: 'Masar API',
        version: '1.0.0',
        description:
          'Freight load-board marketplace for Saudi Arabia. Envelope `{message, data}`; errors `{message, code, errors?}` with `message` in the language of the `language` header (en|ar); its numbers in Arabic-Indic or Western digits as a `-u-nu-arab` / `-u-nu-latn` extension of that header or of Accept-Language asks (default: Arabic-Indic for ar, Western for en). Money SAR as decimal strings, distance km, weight kg, dimensions cm, times ISO 8601 (UTC). Integrators: API keys (`X-API-Key`) and signed webhooks, see docs/api.md. /api/v1 stays compatible; a breaking change is a new version, and deprecated operations answer a `Deprecation` header.',
        license: { name: 'Proprietary', url: 'https://masar.sa/terms' },
        contact: { name: 'Masar API', email: 'api@masar.sa' },
      },
      servers: [{ url: '/' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from sign-in (15 minutes).' },
          apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'An API key made in the account (`msk_…`), scoped per area.' },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: (args) => {
      const out = jsonSchemaTransform(args);
      const route = args.route;
      const schema = { ...(out.schema as Record<string, unknown>) };
      const method = String(Array.isArray(route.method) ? route.method[0] : route.method);
      const rules = (route.config ?? {}) as AccessRules;
      schema.operationId ??= operationIdFor(method, out.url);
      const keyOk = !rules.sessionOnly && apiKeyScopeFor(schema.tags as string[] | undefined, method.toUpperCase()) !== null;
      // acceptKey: a public route (its own credential, e.g. a driver's trip token) that also takes a key
      schema.security =
        rules.auth === 'none' ? (rules.acceptKey && keyOk ? [{ apiKey: [] }, {}] : []) : keyOk ? [{ bearer: [] }, { apiKey: [] }] : [{ bearer: [] }];
      const response = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
      // downloads (files, CSV templates and exports) answer bytes, not the JSON envelope
      if (!Object.keys(response).some((s) => s.startsWith('2')))
        response['200'] = { description: 'The file itself, in its own content type (CSV text, PDF, JPEG or PNG).', type: 'string', format: 'binary' };
      const success = Number(Object.keys(response).find((s) => s.startsWith('2')) ?? 200);
      for (const [status, codes] of errorCodesFor({ ...route, method, url: out.url, schema: args.schema }, success)) {
        if (response[String(status)]) continue;
        response[String(status)] = {
          description: `Error. \`code\` is one of: ${codes.map((c) => `${c} (${errorMessage(c)})`).join('; ')}`,
          ...ERROR_JSON_SCHEMA,
        };
      }
      schema.response = response;
      return { schema, url: out.url };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  // Versioning (docs/api.md): /api/v1 stays compatible; an operation marked `deprecated` in its
  // schema still works and says so in every answer (RFC 9745 Deprecation header), with its
  // successor in a Link header when the route names one.
  app.addHook('onSend', async (req, reply) => {
    const schema: { deprecated?: boolean; 'x-successor'?: string } | undefined = req.routeOptions.schema;
    if (!schema?.deprecated) return;
    reply.header('deprecation', 'true');
    if (schema['x-successor']) reply.header('link', `<${schema['x-successor']}>; rel="successor-version"`);
  });
});
