import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { moneySar, moneySarOut } from '../money-schemas.ts';
import { isoDateTime } from './common.ts';

/**
 * Tendering (issue 19 "Tendering"; spec §3 offer/bid, §4 bidding): a shipper or broker offers one
 * of its own open loads (posted or unposted, not yet booked) to chosen carriers with a deadline
 * and an optional target rate. `broadcast`: every invited carrier answers at once; `waterfall`:
 * one carrier at a time, each for `stepMinutes`, in the given order. Carriers accept (at the
 * target rate, else the load's price), counter (an amount, SAR) or decline; the owner awards one
 * accepted or countered answer, which books the load through the loads lifecycle at that amount.
 *
 * Tender statuses: `open` → `awarded` (an answer was awarded: the load is booked), `closed` (the
 * deadline passed without an award), `cancelled` (the owner cancelled it). Every change goes
 * through the server's tenders `transition()` and publishes its event (TENDER_ACTION_EVENT).
 */
export const TENDER_STATUSES = ['open', 'awarded', 'closed', 'cancelled'] as const;
export type TenderStatus = (typeof TENDER_STATUSES)[number];
export const TENDER_MODES = ['broadcast', 'waterfall'] as const;
export type TenderMode = (typeof TENDER_MODES)[number];
export const TENDER_ACTIONS = ['award', 'close', 'cancel'] as const;
export type TenderAction = (typeof TENDER_ACTIONS)[number];

/** from → action → to: every allowed tender status change, once. */
export const TENDER_TRANSITIONS: Record<TenderStatus, Partial<Record<TenderAction, TenderStatus>>> = {
  open: { award: 'awarded', close: 'closed', cancel: 'cancelled' },
  awarded: {},
  closed: {},
  cancelled: {},
};
export const tenderTransition = (from: TenderStatus, action: TenderAction): TenderStatus | null => TENDER_TRANSITIONS[from]?.[action] ?? null;
export const TENDER_ACTION_EVENT = { award: 'tender.awarded', close: 'tender.closed', cancel: 'tender.cancelled' } as const satisfies Record<
  TenderAction,
  string
>;

/**
 * Invite statuses: `waiting` (waterfall: not yet its turn; invisible to the carrier), `invited`
 * (may answer; in waterfall until `windowEndsAt`), `accepted` / `countered` / `declined` (its
 * answer), `expired` (waterfall: its window ended unanswered), `awarded` (won), `closed` (the
 * tender was awarded to another, closed or cancelled: "bidding closed", spec §4).
 */
export const TENDER_INVITE_STATUSES = ['waiting', 'invited', 'accepted', 'countered', 'declined', 'expired', 'awarded', 'closed'] as const;
export type TenderInviteStatus = (typeof TENDER_INVITE_STATUSES)[number];
export const TENDER_INVITE_ACTIONS = ['invite', 'accept', 'counter', 'decline', 'expire', 'award', 'close'] as const;
export type TenderInviteAction = (typeof TENDER_INVITE_ACTIONS)[number];
export const TENDER_INVITE_TRANSITIONS: Record<TenderInviteStatus, Partial<Record<TenderInviteAction, TenderInviteStatus>>> = {
  waiting: { invite: 'invited', close: 'closed' },
  invited: { accept: 'accepted', counter: 'countered', decline: 'declined', expire: 'expired', close: 'closed' },
  accepted: { award: 'awarded', close: 'closed' },
  countered: { award: 'awarded', close: 'closed' },
  declined: {},
  expired: {},
  awarded: {},
  closed: {},
};
export const tenderInviteTransition = (from: TenderInviteStatus, action: TenderInviteAction): TenderInviteStatus | null =>
  TENDER_INVITE_TRANSITIONS[from]?.[action] ?? null;
/** The event each invite action publishes (the award's is tender.awarded, published with the tender's). */
export const TENDER_INVITE_ACTION_EVENT = {
  invite: 'tender.invited',
  accept: 'tender.answered',
  counter: 'tender.answered',
  decline: 'tender.answered',
  expire: 'tender.invite_expired',
  award: 'tender.invite_awarded',
  close: 'tender.invite_closed',
} as const satisfies Record<TenderInviteAction, string>;

/** The answers a carrier gives. */
export const TENDER_ANSWERS = ['accept', 'counter', 'decline'] as const;
export type TenderAnswer = (typeof TENDER_ANSWERS)[number];
/** At most this many carriers per tender. */
export const TENDER_INVITEES_MAX = 20;
/** Waterfall window per carrier, minutes. */
export const TENDER_STEP_MINUTES = { min: 5, max: 1440, default: 30 } as const;
/** The deadline is at most this many days ahead. */
export const TENDER_DEADLINE_MAX_DAYS = 30;
/** Tender lists (GET /tenders?tab=): the tenders I sent, the ones I received. */
export const TENDER_TABS = ['sent', 'received'] as const;
export type TenderTab = (typeof TENDER_TABS)[number];

const ids = z.array(z.uuid()).max(TENDER_INVITEES_MAX, 'v.tenderCarriers');

/**
 * POST /tenders — tender one of my loads. `carrierIds` (carrier or broker accounts) and/or
 * `vendorIds` (my vendors with a Masar account), in waterfall order; at least one. `deadline`
 * ISO date-time in the future (≤ 30 days). `targetRateSar` optional (SAR decimal string).
 */
export const createTenderBody = z
  .object({
    loadId: z.uuid(),
    carrierIds: ids.default([]),
    vendorIds: ids.default([]),
    deadline: isoDateTime,
    targetRateSar: moneySar.optional(),
    mode: z.enum(TENDER_MODES).default('broadcast'),
    stepMinutes: z
      .number({ error: 'v.tenderStep' })
      .int('v.tenderStep')
      .min(TENDER_STEP_MINUTES.min, 'v.tenderStep')
      .max(TENDER_STEP_MINUTES.max, 'v.tenderStep')
      .default(TENDER_STEP_MINUTES.default),
    postToBoardOnClose: z.boolean().default(false),
  })
  .superRefine((b, ctx) => {
    const n = new Set([...b.carrierIds, ...b.vendorIds]).size;
    if (n === 0 || n > TENDER_INVITEES_MAX) ctx.addIssue({ code: 'custom', message: 'v.tenderCarriers', path: ['carrierIds'] });
    const d = Date.parse(b.deadline);
    if (!(d > Date.now()) || d - Date.now() > TENDER_DEADLINE_MAX_DAYS * 86_400_000)
      ctx.addIssue({ code: 'custom', message: 'v.tenderDeadline', path: ['deadline'] });
  });
export type CreateTenderBody = z.input<typeof createTenderBody>;

/** POST /tenders/:id/answer — accept (at the target rate, else the load's price), counter with `amountSar`, or decline. */
export const tenderAnswerBody = z
  .object({ action: z.enum(TENDER_ANSWERS), amountSar: moneySar.optional() })
  .refine((b) => b.action !== 'counter' || b.amountSar !== undefined, { message: 'v.pricePositive', path: ['amountSar'] });
export type TenderAnswerBody = z.input<typeof tenderAnswerBody>;

/** POST /tenders/:id/award — the invite whose answer is awarded. */
export const tenderAwardBody = z.object({ inviteId: z.uuid() });

/** GET /tenders — tab sent (mine, newest first) or received (invites to me, newest first); keyset paging. */
export const tendersQuery = z.object({
  tab: z.enum(TENDER_TABS).default('sent'),
  limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).default(20),
  cursor: z.string().min(1).max(300).optional(),
});

/** One invited carrier and its answer. */
export const tenderInviteSchema = z.object({
  id: z.uuid(),
  carrierId: z.uuid(),
  carrierCompany: z.string(),
  /** Waterfall order (1 = first). */
  position: z.number().int(),
  status: z.enum(TENDER_INVITE_STATUSES),
  /** The answered amount, SAR (accept: the target rate or the load's price; counter: the carrier's). */
  amountSar: moneySarOut.nullable(),
  answeredAt: z.string().nullable(),
  invitedAt: z.string().nullable(),
  /** Waterfall: when its turn ends. */
  windowEndsAt: z.string().nullable(),
  /** The carrier account is verified (approved). */
  verified: z.boolean(),
  /** The carrier has a WASL-verified vehicle. */
  waslVerified: z.boolean(),
  /** Either side blocked the other (issue 8). */
  blocked: z.boolean(),
  /** Verified, not blocked, and a WASL-verified vehicle: may be awarded without a second look. */
  compliant: z.boolean(),
});
export type TenderInvite = z.infer<typeof tenderInviteSchema>;

/** A tender as the API returns it: its owner sees every invite; an invited carrier only its own. */
export const tenderSchema = z.object({
  id: z.uuid(),
  loadId: z.uuid(),
  loadReferenceId: z.string(),
  loadStatus: z.string(),
  loadPriceSar: moneySarOut,
  lane: z.object({ fromEn: z.string(), fromAr: z.string(), toEn: z.string(), toAr: z.string() }),
  pickupAt: z.string().nullable(),
  equipmentType: z.string(),
  ownerId: z.uuid(),
  ownerCompany: z.string(),
  mode: z.enum(TENDER_MODES),
  deadline: z.string(),
  targetRateSar: moneySarOut.nullable(),
  stepMinutes: z.number().int(),
  postToBoardOnClose: z.boolean(),
  status: z.enum(TENDER_STATUSES),
  awardedInviteId: z.uuid().nullable(),
  createdAt: z.string(),
  isMine: z.boolean(),
  invites: z.array(tenderInviteSchema),
  /** The lowest accepted or countered compliant answer (owner's view; null when none). */
  lowestCompliantInviteId: z.uuid().nullable(),
});
export type Tender = z.infer<typeof tenderSchema>;
export const tenderPage = z.object({ items: z.array(tenderSchema), nextCursor: z.string().nullable() });
export type TenderPage = z.infer<typeof tenderPage>;
