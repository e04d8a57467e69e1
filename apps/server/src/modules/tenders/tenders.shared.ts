import { ACTIVE_LOAD_STATUSES, type Tender, type TenderInvite } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { TendersDeps } from './deps.ts';
import { closeOpenInvites, transitionTender } from './lifecycle.ts';
import * as repo from './tenders.repository.ts';

const iso = (s: string | Date | null) => (s == null ? null : new Date(s).toISOString());

/** A load a tender may be about: not deleted, unposted or posted (not past its expiry), not booked. */
export function loadRefusal(l: { status: string; expired: boolean; deleted: boolean }) {
  if (l.deleted || l.status === 'cancelled') return 'SHIPMENT_CANCELLED' as const;
  if ((ACTIVE_LOAD_STATUSES as readonly string[]).includes(l.status) || l.status === 'completed') return 'SHIPMENT_ALREADY_ASSIGNED' as const;
  if (l.status === 'unposted' || (l.status === 'posted' && !l.expired)) return null;
  return 'TENDER_LOAD_NOT_OPEN' as const;
}

function inviteView(i: repo.InviteRow): TenderInvite {
  return {
    id: i.id,
    carrierId: i.carrier_id,
    carrierCompany: i.carrier_company,
    position: i.position,
    status: i.status,
    amountSar: i.amount,
    answeredAt: iso(i.answered_at),
    invitedAt: iso(i.invited_at),
    windowEndsAt: iso(i.window_ends_at),
    verified: i.verified,
    waslVerified: i.wasl_verified,
    blocked: i.blocked,
    compliant: i.verified && i.wasl_verified && !i.blocked,
  };
}

function tenderView(r: repo.TenderRow, inv: TenderInvite[], viewerId: string): Tender {
  const isMine = r.owner_id === viewerId;
  const answered = inv.filter((i) => i.compliant && (i.status === 'accepted' || i.status === 'countered' || i.status === 'awarded') && i.amountSar);
  const lowest = isMine && answered.length ? answered.reduce((a, b) => (Number(b.amountSar) < Number(a.amountSar) ? b : a)) : null;
  return {
    id: r.id,
    loadId: r.load_id,
    loadReferenceId: r.reference_id,
    loadStatus: r.load_status,
    loadPriceSar: r.load_price,
    lane: { fromEn: r.from_en, fromAr: r.from_ar, toEn: r.to_en, toAr: r.to_ar },
    pickupAt: iso(r.pickup_at),
    equipmentType: r.equipment_type,
    ownerId: r.owner_id,
    ownerCompany: r.owner_company,
    mode: r.mode,
    deadline: iso(r.deadline)!,
    targetRateSar: r.target_rate,
    stepMinutes: r.step_minutes,
    postToBoardOnClose: r.post_on_close,
    status: r.status,
    awardedInviteId: r.awarded_invite_id,
    createdAt: iso(r.created_at)!,
    isMine,
    invites: inv,
    lowestCompliantInviteId: lowest?.id ?? null,
  };
}

/** The tenders `ids` as `viewerId` sees them, in that order: all invites for the owner, only its own for an invitee. */
export async function hydrate(via: DbOrTx, ids: string[], viewerId: string): Promise<Tender[]> {
  const rows = await repo.tenderRows(via, ids);
  const mine = rows.filter((r) => r.owner_id === viewerId).map((r) => r.id);
  const others = rows.filter((r) => r.owner_id !== viewerId).map((r) => r.id);
  const invites = [...(await repo.inviteRows(via, mine)), ...(await repo.inviteRows(via, others, viewerId))];
  const byTender = new Map<string, TenderInvite[]>();
  for (const i of invites) {
    const list = byTender.get(i.tender_id) ?? [];
    list.push(inviteView(i));
    byTender.set(i.tender_id, list);
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids
    .map((id) => byId.get(id))
    .filter((r): r is repo.TenderRow => !!r)
    .map((r) => tenderView(r, byTender.get(r.id) ?? [], viewerId));
}

/** Close one tender (locked by the caller): its open invites, then the tender; posts the load when asked. */
export async function closeTender({ loads }: Pick<TendersDeps, 'loads'>, tx: DbOrTx, t: repo.TenderState, reason: 'deadline' | 'load_unavailable') {
  await closeOpenInvites(tx, t, null, reason);
  let posted = false;
  if (reason === 'deadline' && t.post_on_close) posted = await loads.postToBoard(tx, t.load_id, null, { tenderId: t.id });
  await transitionTender(tx, t.id, 'close', null, { reason, ...(t.post_on_close ? { postedToBoard: posted } : {}) });
  if (posted) await loads.boardChanged(tx, t.load_id);
}
