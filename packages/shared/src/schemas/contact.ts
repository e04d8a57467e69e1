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
 * City landing pages `/city/<slug>` (issue 8): the major cities, with their ids in the
 * reference data (apps/server/src/db/reference/cities.json). The sitemap lists each one.
 */
export const CITY_PAGES = [
  { slug: 'riyadh', cityId: 3 },
  { slug: 'jeddah', cityId: 18 },
  { slug: 'dammam', cityId: 13 },
  { slug: 'makkah', cityId: 6 },
  { slug: 'madinah', cityId: 14 },
  { slug: 'khobar', cityId: 31 },
  { slug: 'jubail', cityId: 113 },
  { slug: 'tabuk', cityId: 1 },
  { slug: 'abha', cityId: 15 },
  { slug: 'buraydah', cityId: 11 },
  { slug: 'hail', cityId: 10 },
  { slug: 'jazan', cityId: 17 },
] as const;
export type CitySlug = (typeof CITY_PAGES)[number]['slug'];
