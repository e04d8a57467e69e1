import { sql } from 'drizzle-orm';
import type { TenderInviteStatus, TenderStatus } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import { queryRows } from '../../lib/sql.ts';

/**
 * The only SQL that writes `tenders.status` and `tender_invites.status` (issue 19; one lifecycle
 * per table like loads'). Called by lifecycle.ts and nothing else (test/boundaries.test.ts).
 */

/** Columns a tender transition may set beside the status. */
export interface TenderSet {
  awardedInviteId?: string;
  closed?: boolean;
}

/** `update tenders set status = $to … where id = $id and status = $from`; false when the status changed meanwhile. */
export async function transitionTenderRow(tx: DbOrTx, id: string, from: TenderStatus, to: TenderStatus, set: TenderSet = {}): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`update tenders set status = ${to}, updated_at = now(),
          awarded_invite_id = coalesce(${set.awardedInviteId ?? null}::uuid, awarded_invite_id),
          closed_at = case when ${set.closed ?? false}::boolean then now() else closed_at end
        where id = ${id} and status = ${from} returning id`,
  );
  return rows.length > 0;
}

/** Columns an invite transition may set beside the status. */
export interface InviteSet {
  amount?: string | null;
  answered?: boolean;
  /** invite: invited now, its turn ending then (waterfall), or null (broadcast). */
  invitedWindowEndsAt?: Date | null;
}

/** `update tender_invites set status = $to … where id = $id and status = $from`; false when the status changed meanwhile. */
export async function transitionInviteRow(tx: DbOrTx, id: string, from: TenderInviteStatus, to: TenderInviteStatus, set: InviteSet = {}): Promise<boolean> {
  const invited = set.invitedWindowEndsAt !== undefined;
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`update tender_invites set status = ${to}, updated_at = now(),
          amount = case when ${set.amount !== undefined}::boolean then ${set.amount ?? null}::numeric else amount end,
          answered_at = case when ${set.answered ?? false}::boolean then now() else answered_at end,
          invited_at = case when ${invited}::boolean then now() else invited_at end,
          window_ends_at = case when ${invited}::boolean then ${set.invitedWindowEndsAt ? set.invitedWindowEndsAt.toISOString() : null}::timestamptz else window_ends_at end
        where id = ${id} and status = ${from} returning id`,
  );
  return rows.length > 0;
}
