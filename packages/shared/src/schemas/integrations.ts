import { z } from 'zod';
import { DOMAIN_EVENTS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../events.ts';
import { isoDateTime } from './common.ts';

/**
 * What an API key may do (issue 11). `read` scopes allow GET, `write` scopes the rest, per area.
 * Account, password, session, API-key and webhook management are never open to a key.
 */
export const API_KEY_SCOPES = [
  'loads:read',
  'loads:write',
  'offers:read',
  'offers:write',
  'fleet:read',
  'fleet:write',
  'vendors:read',
  'vendors:write',
  'csv:read',
  'csv:write',
  'files:read',
  'files:write',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** The header an integrator sends the key in. */
export const API_KEY_HEADER = 'x-api-key';

/** POST /api-keys */
export const apiKeyCreateBody = z.object({
  name: z.string().trim().min(1, 'v.required').max(80, 'v.textMax'),
  scopes: z.array(z.enum(API_KEY_SCOPES)).min(1, 'v.required').max(API_KEY_SCOPES.length),
  /** Requests per minute allowed with this key (default 120). */
  ratePerMinute: z.number().int().min(1).max(6000).default(120),
});
export type ApiKeyCreateInput = z.input<typeof apiKeyCreateBody>;

/** An API key as listed (never the secret). */
export const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The key's first characters, to recognise it (e.g. `msk_3f9a1c`). */
  prefix: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  ratePerMinute: z.number().int(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  useCount: z.number().int(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
/** POST /api-keys answer: the key itself, shown this once. */
export const apiKeyCreatedSchema = apiKeySchema.extend({ key: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

const webhookUrl = z
  .string()
  .trim()
  .max(500, 'v.textMax')
  .refine((u) => URL.canParse(u), 'v.urlInvalid');

/** POST /webhooks */
export const webhookCreateBody = z.object({
  url: webhookUrl,
  description: z.string().trim().max(200, 'v.textMax').optional(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1, 'v.required').max(WEBHOOK_EVENT_TYPES.length),
});
export type WebhookCreateInput = z.input<typeof webhookCreateBody>;
/** PATCH /webhooks/:id */
export const webhookUpdateBody = webhookCreateBody.partial().extend({ active: z.boolean().optional() });

export const webhookEndpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  active: z.boolean(),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
/** POST /webhooks answer and GET /webhooks/:id/secret: the signing secret (`whsec_…`). */
export const webhookWithSecretSchema = webhookEndpointSchema.extend({ secret: z.string() });

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const webhookDeliverySchema = z.object({
  id: z.uuid(),
  endpointId: z.uuid(),
  eventId: z.uuid(),
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastResponse: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveriesQuery = z.object({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  before: isoDateTime.optional(),
});

/**
 * The body Masar POSTs to an endpoint: the event as published, `data` its payload (one schema
 * per type: DOMAIN_EVENTS in events.ts, the OpenAPI `webhooks` section, docs/events.md);
 * `loadId` on shipment events. Headers: Standard Webhooks `webhook-id` (the event id),
 * `webhook-timestamp`, `webhook-signature: v1,<base64>`; and `Masar-Event-Id`,
 * `Masar-Event-Type`, `Masar-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 */
export const webhookEventPayload = z.object({
  id: z.uuid(),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  createdAt: z.string(),
  loadId: z.uuid().optional(),
  data: z.record(z.string(), z.unknown()),
});
/** The webhook body of one event type, its `data` typed by the contract (OpenAPI `webhooks`). */
export const webhookBodyOf = <T extends WebhookEventType>(type: T) =>
  z.object({
    id: z.uuid(),
    type: z.literal(type),
    createdAt: z.string(),
    ...(DOMAIN_EVENTS[type].aggregate === 'load' ? { loadId: z.uuid() } : {}),
    data: DOMAIN_EVENTS[type].schema,
  });
export type WebhookEventPayload = z.infer<typeof webhookEventPayload>;
