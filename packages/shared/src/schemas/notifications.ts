import { z } from 'zod';

/**
 * Stored in-app notifications (issue 21 "Notifications"; spec §7 GET/POST/PATCH
 * /user/notification; docs/notifications.md). The server stores the event type and a few params;
 * the web renders the text from the i18n namespace `notifications` (key = the type).
 */
export const NOTIFICATION_CATEGORIES = ['offers', 'shipments', 'bayan', 'trips', 'tenders', 'rates', 'chat', 'account', 'billing'] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];
/** Delivery channels. inApp, email and push (web push, issue 21) are delivered; sms is stored for a later channel. */
export const NOTIFICATION_CHANNELS = ['inApp', 'email', 'sms', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
/** The categories whose events may warrant an SMS (offer accepted, load assigned, Bayan failed): only they offer the sms switch. */
export const SMS_CATEGORIES: readonly NotificationCategory[] = ['offers', 'shipments', 'bayan'];
/** A page of the list. */
export const NOTIFICATIONS_PAGE = 20;
/** The e-mail digest interval by default (minutes): at most one e-mail per category per interval. */
export const NOTIFICATION_DIGEST_MINUTES = 15;

/** One notification as the API returns it. `params`: values for the i18n text (priceSar, step, reason, …). */
export const notificationSchema = z.object({
  id: z.uuid(),
  type: z.string(),
  category: z.enum(NOTIFICATION_CATEGORIES),
  loadId: z.uuid().nullable(),
  referenceId: z.string().nullable(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  /** The screen it opens for this user (e.g. /shippers/loads/<id>). */
  link: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** GET /user/notification: cursor = the last id of the previous page; unread=1 only unread; a category. */
export const notificationListQuery = z.object({
  cursor: z.uuid().optional(),
  unread: z.enum(['1', 'true', '0', 'false']).optional(),
  category: z.enum(NOTIFICATION_CATEGORIES).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(NOTIFICATIONS_PAGE),
});
export const notificationList = z.object({
  items: z.array(notificationSchema),
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: z.uuid().nullable(),
  unread: z.number().int(),
});
export const unreadCountSchema = z.object({ unread: z.number().int() });

/** PATCH /user/notification: mark these (mine) read, or all of mine. */
export const markNotificationsBody = z.union([z.object({ ids: z.array(z.uuid()).min(1).max(100) }).strict(), z.object({ all: z.literal(true) }).strict()]);
export type MarkNotificationsBody = z.infer<typeof markNotificationsBody>;
export const markNotificationsResult = z.object({ marked: z.number().int(), unread: z.number().int() });

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'v.time');
const channelSwitches = z.object({ inApp: z.boolean(), email: z.boolean(), sms: z.boolean(), push: z.boolean() });
export type ChannelSwitches = z.infer<typeof channelSwitches>;

/** Preferences: per category × channel; quiet hours (Riyadh time, both or neither); the digest interval. */
export const notificationPreferencesSchema = z
  .object({
    channels: z.object(Object.fromEntries(NOTIFICATION_CATEGORIES.map((c) => [c, channelSwitches])) as Record<NotificationCategory, typeof channelSwitches>),
    quietFrom: hhmm.nullable(),
    quietTo: hhmm.nullable(),
    digestMinutes: z.number().int().min(1).max(1440),
  })
  .refine((p) => (p.quietFrom === null) === (p.quietTo === null), { message: 'v.quietHours', path: ['quietTo'] });
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/**
 * The categories whose push switch is on by default: what a user acts on (offers, bookings,
 * tenders, Bayan, payments and plan, account). Driver steps and rate alerts are frequent or
 * informational: push off unless switched on. Push reaches only browsers that enabled it.
 */
export const PUSH_DEFAULT_CATEGORIES: readonly NotificationCategory[] = ['offers', 'shipments', 'bayan', 'tenders', 'account', 'billing'];

/** The preferences of a user who never saved any: in-app on everywhere; e-mail on except driver steps; push on for PUSH_DEFAULT_CATEGORIES; sms off. */
export function defaultNotificationPreferences(): NotificationPreferences {
  const channels = Object.fromEntries(
    NOTIFICATION_CATEGORIES.map((c) => [c, { inApp: true, email: c !== 'trips', sms: false, push: PUSH_DEFAULT_CATEGORIES.includes(c) }]),
  ) as NotificationPreferences['channels'];
  return { channels, quietFrom: null, quietTo: null, digestMinutes: NOTIFICATION_DIGEST_MINUTES };
}
