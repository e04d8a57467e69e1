import { z } from 'zod';
import { emailSchema, phoneSchema } from '../validation.ts';

/** Topics of a contact message (POST /contact): who is writing and about what. */
export const CONTACT_TOPICS = ['shipper', 'carrier', 'broker', 'billing', 'partnership', 'other'] as const;
export type ContactTopic = (typeof CONTACT_TOPICS)[number];

/**
 * POST /api/v1/contact (issue 8, public pages; spec §1 contact us). name 2–80 characters,
 * a valid e-mail, an optional Saudi mobile (E.164 out, like sign-up), a topic and a message of
 * 10–2,000 characters. Messages are `v.*` keys (packages/shared/src/messages.ts).
 */
export const contactBody = z.object({
  name: z.string({ error: 'v.contactName' }).trim().min(2, 'v.contactName').max(80, 'v.contactName'),
  email: emailSchema,
  phone: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), phoneSchema.optional()),
  topic: z.enum(CONTACT_TOPICS, { error: 'v.contactTopic' }),
  message: z.string({ error: 'v.contactMessage' }).trim().min(10, 'v.contactMessage').max(2000, 'v.contactMessage'),
});
export type ContactBody = z.infer<typeof contactBody>;

/**
 * Answer of POST /contact: the stored message's `id` (uuid) and its `reference`, the short code
 * the visitor quotes to support (e.g. "CT-7KQ2MX"; also in both e-mails).
 */
export const contactResultSchema = z.object({ id: z.string(), reference: z.string() });
export type ContactResult = z.infer<typeof contactResultSchema>;

/**
 * City landing pages `/city/<slug>` (issue 8): the major cities, with their ids and centres in the
 * reference data (apps/server/src/db/reference/cities.json; a server test keeps them equal). The
 * sitemap lists each one; the centres give a lane page its straight-line distance without a request,
 * so the build can prerender it (issue 23).
 */
export const CITY_PAGES = [
  { slug: 'riyadh', cityId: 3, lat: 24.7, lng: 46.73333 },
  { slug: 'jeddah', cityId: 18, lat: 21.48818, lng: 39.18095 },
  { slug: 'dammam', cityId: 13, lat: 26.44199, lng: 50.1092 },
  { slug: 'makkah', cityId: 6, lat: 21.42718, lng: 39.84349 },
  { slug: 'madinah', cityId: 14, lat: 24.47058, lng: 39.60781 },
  { slug: 'khobar', cityId: 31, lat: 26.31091, lng: 50.21075 },
  { slug: 'jubail', cityId: 113, lat: 26.99921, lng: 49.67047 },
  { slug: 'tabuk', cityId: 1, lat: 28.41464, lng: 36.53387 },
  { slug: 'abha', cityId: 15, lat: 18.21667, lng: 42.5 },
  { slug: 'buraydah', cityId: 11, lat: 26.33034, lng: 43.97436 },
  { slug: 'hail', cityId: 10, lat: 27.53055, lng: 41.69733 },
  { slug: 'jazan', cityId: 17, lat: 16.89672, lng: 42.5536 },
] as const;
export type CitySlug = (typeof CITY_PAGES)[number]['slug'];
