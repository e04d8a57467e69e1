import { z } from 'zod';

/**
 * Web push (issue 21 "Notifications"; spec §7 POST /topics/subscribe, /topics/unsubscribe
 * `{token, topic}`; spec §4 push topic sync; docs/notifications.md "Web push"). On the web the
 * spec's device `token` is the browser's push subscription (PushSubscription.toJSON(): the push
 * service's endpoint and the keys the server encrypts to), and the `topic` is the profile's
 * `fcmTopic` (`user_<account id>`): the account whose notifications this browser receives.
 */

/** The longest push endpoint accepted (real ones are under 1 KB). */
export const PUSH_ENDPOINT_MAX = 2048;

/**
 * A browser's push subscription: `endpoint` an https URL of the push service; `keys.p256dh` the
 * P-256 public key (65 bytes uncompressed, base64url), `keys.auth` the 16-byte auth secret
 * (base64url) — RFC 8291. `expirationTime` is ignored.
 */
export const pushTokenSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/, error: 'v.pushEndpoint' }).max(PUSH_ENDPOINT_MAX, 'v.pushEndpoint'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{86,88}={0,2}$/, 'v.pushKey'),
    auth: z.string().regex(/^[A-Za-z0-9_-]{21,24}={0,2}$/, 'v.pushKey'),
  }),
});
export type PushToken = z.infer<typeof pushTokenSchema>;

/** POST /topics/subscribe and /topics/unsubscribe: this browser's subscription and the account topic (profile.fcmTopic). */
export const pushTopicBody = z
  .object({
    token: pushTokenSchema,
    topic: z.string().regex(/^user_[0-9a-f-]{36}$/, 'v.pushTopic'),
  })
  .strict();
export type PushTopicBody = z.infer<typeof pushTopicBody>;

/** The answer of both topic calls: whether this browser is now subscribed to the topic. */
export const pushTopicResult = z.object({ subscribed: z.boolean(), topic: z.string() });

/** GET /push/vapid-public-key: the application server key for PushManager.subscribe (base64url, uncompressed P-256). */
export const vapidPublicKeySchema = z.object({ publicKey: z.string() });

/**
 * What the service worker receives in a push (decrypted): the title and body in the user's
 * language, the screen it opens (a path of the web app), a tag (a newer push with the same tag
 * replaces the older on the device) and the notification id.
 */
export const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  url: z.string(),
  tag: z.string(),
  id: z.string().optional(),
  lang: z.enum(['en', 'ar']),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
