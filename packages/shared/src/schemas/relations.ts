import { z } from 'zod';

/**
 * Favourites, blocked users, contact settings and the counterpart contact card (issue 8; spec §2
 * "Account": favourites, blocked list, settings; §6 "Users may block or favourite shippers and
 * brokers; settings control who may contact by video, audio or chat"; §7 /account/favourite,
 * /account/blocked).
 */

/** At most this many favourites, and this many blocked users, per user (LIMIT_REACHED beyond). */
export const RELATIONS_MAX = 1000;

/** The two lists: `favourite` (users I starred) and `blocked` (users I blocked). */
export const RELATION_KINDS = ['favourite', 'blocked'] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

/** POST /account/favourite: the user to favourite. */
export const favouriteInput = z.object({ userId: z.uuid({ error: 'v.required' }) });
export type FavouriteInput = z.infer<typeof favouriteInput>;

/** POST /account/blocked: the user to block, and an optional private note (≤ 300 characters). */
export const blockInput = z.object({
  userId: z.uuid({ error: 'v.required' }),
  reason: z.string().trim().max(300, 'v.blockReason').optional(),
});
export type BlockInput = z.infer<typeof blockInput>;

/** DELETE /account/favourite/:userId, /account/blocked/:userId. */
export const relationParams = z.object({ userId: z.uuid() });

/** GET /account/favourite, /account/blocked: keyset pages, newest first; pass `nextCursor` back as `cursor`. */
export const relationListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});
export type RelationListQuery = z.infer<typeof relationListQuery>;

/** One entry of my favourites or blocked list: the other company as the board shows it. */
export const relationEntrySchema = z.object({
  userId: z.uuid(),
  companyName: z.string(),
  /** ACCOUNT_TYPE of the other user (1 shipper, 2 carrier, 3 broker …). */
  accountType: z.number().int(),
  /** Their profile is approved (PROFILE_STATUS.approved). */
  verified: z.boolean(),
  /** My private note (blocked list only; null otherwise). */
  reason: z.string().nullable(),
  /** When I added them (ISO 8601). */
  createdAt: z.string(),
});
export type RelationEntry = z.infer<typeof relationEntrySchema>;

export const relationListResponse = z.object({
  items: z.array(relationEntrySchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
  /** How many I have in this list, and the limit (RELATIONS_MAX). */
  total: z.number().int(),
  max: z.number().int(),
});
export type RelationListResponse = z.infer<typeof relationListResponse>;

/** How I stand with another user (load details, offers: the Favourite / Block menu). */
export const relationStatusSchema = z.object({
  userId: z.uuid(),
  favourite: z.boolean(),
  blocked: z.boolean(),
});
export type RelationStatus = z.infer<typeof relationStatusSchema>;

/**
 * Who may reach me on a channel: everyone; only users I have favourited; only the other parties
 * of my bookings (the default); nobody.
 */
export const CONTACT_AUDIENCES = ['everyone', 'favourites', 'counterparts', 'nobody'] as const;
export type ContactAudience = (typeof CONTACT_AUDIENCES)[number];
/** The channels of the contact settings (not the contact info channels of PUT /account/contact-info). */
export const REACH_CHANNELS = ['chat', 'audio', 'video'] as const;
export type ReachChannel = (typeof REACH_CHANNELS)[number];

const audience = z.enum(CONTACT_AUDIENCES, { error: 'v.required' });

/** GET/PATCH /account/settings answer: who may reach me by chat, audio call, video call. */
export const accountSettingsSchema = z.object({ chat: audience, audio: audience, video: audience });
export type AccountSettings = z.infer<typeof accountSettingsSchema>;

/** PATCH /account/settings: any of the channels; the others keep their value. */
export const accountSettingsPatch = accountSettingsSchema.partial().strict();
export type AccountSettingsPatch = z.infer<typeof accountSettingsPatch>;

/** A way to reach the other party: `href` is a tel:, mailto: or https://wa.me/ link. */
export const contactLinkSchema = z.object({
  kind: z.enum(['phone', 'officePhone', 'email', 'whatsapp', 'whatsappVideo']),
  /** The channel that allows it (their contact settings). */
  channel: z.enum(REACH_CHANNELS),
  value: z.string(),
  href: z.string(),
});
export type ContactLink = z.infer<typeof contactLinkSchema>;

/**
 * GET /loads/:id/contact: for the shipper or the booked carrier of a booked load, the OTHER
 * party and the ways they let me reach them (their shared contact info × their contact settings).
 */
export const contactCardSchema = z.object({
  loadId: z.uuid(),
  /** The other party's side of the booking. */
  role: z.enum(['shipper', 'carrier']),
  userId: z.uuid(),
  companyName: z.string(),
  /** Channels their settings allow me (a channel can be allowed with nothing shared on it). */
  channels: z.object({ chat: z.boolean(), audio: z.boolean(), video: z.boolean() }),
  links: z.array(contactLinkSchema),
});
export type ContactCard = z.infer<typeof contactCardSchema>;
