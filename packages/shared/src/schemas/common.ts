import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { INT4_MAX } from '../input.ts';

/** `{ message, data }` envelope of every successful answer (DESIGN §3). */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ message: z.string(), data });

/** Error body `{ message, code, errors? }`. */
export const errorBodySchema = z.object({
  message: z.string(),
  code: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** `limit` (1–100, default 20) and `skip` (≥0, default 0) query parameters of every list. */
export const paginationQuery = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).default(20),
  skip: z.coerce.number().int().min(0).max(INT4_MAX, 'v.numberRange').default(0),
});

/**
 * A reference id (city, district, region: PostgreSQL integer), also from a query string:
 * a positive whole number up to 2,147,483,647 — a larger one is a 400, never a database error.
 */
export const refId = (message = 'v.cityInvalid') => z.coerce.number({ error: message }).int(message).positive(message).max(INT4_MAX, message);

/**
 * Lists over sets that can grow without bound (the load board, my loads) count exactly up to
 * this many rows and then stop: `total` is then this cap and `totalCapped` is true ("1,000+").
 * Counting every match of a national board costs more than the page itself (issue 10).
 */
export const COUNT_CAP = 1000;

/**
 * `{ items, total, totalCapped }` of a list whose count is capped: `total` is exact when
 * `totalCapped` is false; when true there are more than `total` (= COUNT_CAP) matches.
 */
export const cappedListOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int().min(0).max(COUNT_CAP),
    totalCapped: z.boolean(),
  });

/** `{ items, total }` of every list. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number().int() });

export const uuidSchema = z.uuid();
export const idParams = z.object({ id: z.uuid() });

/** ISO 8601 date-time with offset, e.g. 2026-11-23T08:00:00+03:00 or …Z. */
export const isoDateTime = z.iso.datetime({ offset: true, error: 'v.dateInvalid' });
