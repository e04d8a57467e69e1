import { z } from 'zod';
import { LIMITS, SEARCH_PICKUP_RADIUS_KM } from '../constants.ts';
import { COUNT_CAP, isoDateTime, refId } from './common.ts';
import { loadSchema } from './loads.ts';
import { truckSchema } from './trucks.ts';

/* Truck in/out and shipment in/out logs (issue 19; spec §2 truck in/out, shipment in/out; §7
 * /truckInOutLogs, /loadInOutLogs and their /refresh variants). */

export const INOUT_DIRECTIONS = ['in', 'out'] as const;
export type InOutDirection = (typeof INOUT_DIRECTIONS)[number];
/** The default window: now .. now + 7 days. */
export const INOUT_DEFAULT_DAYS = 7;
/** The longest window a log covers, days (`to` − `from`). */
export const INOUT_WINDOW_MAX_DAYS = 31;
/** The load-to-truck ratio looks back this many hours. */
export const INOUT_RATIO_HOURS = 24;
/**
 * How old the area figures of a log may be, ms: both directions' counts and the 24 h ratio are
 * kept this long per area and window (to the minute) and shared by every viewer without blocks;
 * the page of trucks or loads is always read fresh, and …/refresh reads the figures fresh too.
 */
export const INOUT_FIGURES_TTL_MS = 30_000;

/**
 * GET /truckInOutLogs and GET /loadInOutLogs (and …/refresh): `cityId` with an optional `radius`
 * (km, the spec's radius options; without: that city only); the window `from`–`to` (ISO
 * date-times; default now .. +7 days; at most 31 days, `to` after `from`: v.dateRange,
 * v.inoutWindow); `direction` in (arriving / delivering to) or out (leaving / picking up);
 * keyset paging by `limit` and `cursor` (the previous page's nextCursor).
 */
export const inOutQuery = z
  .object({
    cityId: refId(),
    radius: z.coerce
      .number()
      .refine((v) => (SEARCH_PICKUP_RADIUS_KM as readonly number[]).includes(v), 'v.radiusOption')
      .optional(),
    from: isoDateTime.optional(),
    to: isoDateTime.optional(),
    direction: z.enum(INOUT_DIRECTIONS).default('in'),
    limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).default(20),
    cursor: z.string().min(1).max(300).optional(),
  })
  .superRefine((q, ctx) => {
    const from = q.from ? Date.parse(q.from) : Date.now();
    const to = q.to ? Date.parse(q.to) : from + INOUT_DEFAULT_DAYS * 86_400_000;
    if (to <= from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'v.dateRange' });
    else if (to - from > INOUT_WINDOW_MAX_DAYS * 86_400_000) ctx.addIssue({ code: 'custom', path: ['to'], message: 'v.inoutWindow' });
  });
export type InOutQuery = z.infer<typeof inOutQuery>;

/** A count that stops at COUNT_CAP: `capped` true means "more than `total`" (shown "1,000+"). */
export const cappedCount = z.object({ total: z.number().int().min(0).max(COUNT_CAP), capped: z.boolean() });
export type CappedCount = z.infer<typeof cappedCount>;

/**
 * The area's load-to-truck ratio over the last INOUT_RATIO_HOURS hours: marketplace loads whose
 * first pickup is in the circle and trucks whose origin is in the circle, posted in that time
 * (not deleted); `ratio` = loads ÷ trucks (2 dp), null without trucks.
 */
export const inOutRatio = z.object({
  loads: z.number().int().min(0),
  trucks: z.number().int().min(0),
  ratio: z.number().nullable(),
  hours: z.number().int(),
});

const logFields = {
  direction: z.enum(INOUT_DIRECTIONS),
  /** The window the log covers (ISO). */
  from: z.string(),
  to: z.string(),
  /** Both directions' counts, each capped at COUNT_CAP. */
  counts: z.object({ in: cappedCount, out: cappedCount }),
  ratio: inOutRatio,
  nextCursor: z.string().nullable(),
};

/** GET /truckInOutLogs: posted trucks arriving in (direction in) or leaving (out) the area. */
export const truckInOutResponse = z.object({ ...logFields, items: z.array(truckSchema) });
export type TruckInOutResponse = z.infer<typeof truckInOutResponse>;

/** GET /loadInOutLogs: open marketplace loads delivering to (in) or picking up in (out) the area. */
export const loadInOutResponse = z.object({ ...logFields, items: z.array(loadSchema) });
export type LoadInOutResponse = z.infer<typeof loadInOutResponse>;
