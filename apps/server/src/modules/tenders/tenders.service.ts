import { ACTIVE_LOAD_STATUSES, type Tender, type TenderInvite, type TenderPage, type TenderTab } from '@masar/shared';
import type { z } from 'zod';
import type { createTenderBody, tenderAnswerBody } from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { actingUser } from '../auth/auth.types.ts';
import { requireApproved } from '../../lib/access.ts';
import { AppError, dbErrorCode } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { publish } from '../events/events.service.ts';
import * as repo from './tenders.repository.ts';
import { closeOpenInvites, inviteNext, transitionInvite, transitionTender } from './lifecycle.ts';

/** The loads module's answers and actions a tender needs (its lifecycle; injected by the container). */
export interface TenderLoads {
  stateForOffer(
    tx: DbOrTx,
    loadId: string,
    lock: 'share' | 'update' | 'none',
  ): Promise<{ id: string; shipper_id: string; status: string; expired: boolean; deleted: boolean; price: string } | null>;
  /** Post an unposted load to the board through its lifecycle (load.posted); false when it is not unposted. */
  postToBoard(tx: DbOrTx, loadId: string, actorId: string | null, data?: Record<string, unknown>): Promise<boolean>;
  boardChanged(tx: DbOrTx, loadId: string): Promise<void>;
}
/** The offers module's booking path (accepting an offer), used by the award. */
export interface TenderBooking {
  bookForTender(tx: DbOrTx, b: { loadId: string; carrierId: string; priceSar: string; actorId: string; tenderId: string }): Promise<string>;
}
/** The vendors module's answer: the Masar accounts of my vendors (null: no account yet). */
export interface TenderVendors {
  accounts(tx: DbOrTx, ownerId: string, vendorIds: string[]): Promise<{ vendorId: string; userId: string | null }[]>;
}
/** The relations module's answer: a block either way (issue 8). */
export interface TenderBlocks {
  blockedBetween(db: DbOrTx, a: string, b: string): Promise<boolean>;
}

const iso = (s: string | Date | null) => (s == null ? null : new Date(s).toISOString());

/** A load a tender may be about: not deleted, unposted or posted (not past its expiry), not booked. */
function loadRefusal(l: { status: string; expired: boolean; deleted: boolean }) {
  if (l.deleted || l.status === 'cancelled') return 'SHIPMENT_CANCELLED' as const;
  if ((ACTIVE_LOAD_STATUSES as readonly string[]).includes(l.status) || l.status === 'completed') return 'SHIPMENT_ALREADY_ASSIGNED' as const;
  if (l.status === 'unposted' || (l.status === 'posted' && !l.expired)) return null;
  return 'TENDER_LOAD_NOT_OPEN' as const;
}

/** What other modules may ask of the tenders module (owned here; injected by the container): was a carrier invited to a tender of a load (chat parties, issue 21). */
export const tendersOfLoad = {
  invited: (db: DbOrTx, loadId: string, carrierId: string) => repo.invitedOnLoad(db, loadId, carrierId),
};

/**
 * Tendering (issue 19 "Tendering"; spec §3 offer/bid, §4 bidding). A shipper or broker tenders
 * one of its own open loads to chosen carriers (accounts, or its vendors' accounts) with a
 * deadline and an optional target rate, to all at once (broadcast) or one at a time for
 * `stepMinutes` each (waterfall). Invited carriers accept (at the target rate, else the load's
 * price), counter (an amount) or decline; in waterfall only the carrier whose turn it is, and a
 * decline or counter passes the turn to the next one at once (an accept stops the waterfall:
 * the owner has an answer at its rate). The owner awards one accepted or countered answer: the
 * load is booked through the offers module's booking path (offer.accepted, load.booked — the
 * loads lifecycle) at that amount, and every other invite is closed (tender.invite_closed).
 * Every write locks the tender row FOR UPDATE first and changes statuses with conditional
 * updates (lifecycle.ts), so racing awards and answers book at most once. The tender job
 * (processDue, every minute) closes tenders past their deadline (optionally posting the load to
 * the board) and passes expired waterfall turns on.
 */
export function createTendersService(deps: { db: Db; loads: TenderLoads; offers: TenderBooking; vendors?: TenderVendors; relations?: TenderBlocks }) {
  const { db, loads, offers, vendors, relations } = deps;

  async function hydrate(via: DbOrTx, ids: string[], viewerId: string): Promise<Tender[]> {
    const rows = await repo.tenderRows(via, ids);
    const mine = rows.filter((r) => r.owner_id === viewerId).map((r) => r.id);
    const others = rows.filter((r) => r.owner_id !== viewerId).map((r) => r.id);
    const invites = [...(await repo.inviteRows(via, mine)), ...(await repo.inviteRows(via, others, viewerId))];
    const byTender = new Map<string, TenderInvite[]>();
    for (const i of invites) {
      const list = byTender.get(i.tender_id) ?? [];
      list.push({
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
      });
      byTender.set(i.tender_id, list);
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids
      .map((id) => byId.get(id))
      .filter((r): r is repo.TenderRow => !!r)
      .map((r) => {
        const inv = byTender.get(r.id) ?? [];
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
      });
  }

  /** The tender as `user` may see it: its owner, or an invited carrier whose turn has come; NOT_FOUND otherwise. */
  async function get(user: CurrentUser, id: string, via: DbOrTx = db): Promise<Tender> {
    const t = await repo.tenderState(via, id);
    if (!t) throw new AppError('NOT_FOUND');
    if (t.owner_id !== user.id) {
      const inv = await repo.inviteOf(via, id, user.id);
      if (!inv || inv.status === 'waiting') throw new AppError('NOT_FOUND');
    }
    const [tender] = await hydrate(via, [id], user.id);
    return tender;
  }

  /** Close one tender (locked by the caller): its open invites, then the tender; posts the load when asked. */
  async function closeTender(tx: DbOrTx, t: repo.TenderState, reason: 'deadline' | 'load_unavailable') {
    await closeOpenInvites(tx, t, null, reason);
    let posted = false;
    if (reason === 'deadline' && t.post_on_close) posted = await loads.postToBoard(tx, t.load_id, null, { tenderId: t.id });
    await transitionTender(tx, t.id, 'close', null, { reason, ...(t.post_on_close ? { postedToBoard: posted } : {}) });
    if (posted) await loads.boardChanged(tx, t.load_id);
  }

  return {
    get,

    /**
     * POST /tenders. The load must be mine (NOT_FOUND otherwise), unposted or posted and not
     * booked (TENDER_LOAD_NOT_OPEN, SHIPMENT_ALREADY_ASSIGNED, SHIPMENT_CANCELLED); one open
     * tender per load (TENDER_EXISTS). Invitees: carrier or broker accounts other than mine, not
     * suspended (TENDER_INVITEE_INVALID), not blocked either way (USER_BLOCKED); vendor ids
     * become their accounts (VENDOR_NOT_LINKED when one has none). Publishes tender.created and
     * tender.invited for each carrier invited now (all, or the first in waterfall).
     */
    async create(user: CurrentUser, body: z.output<typeof createTenderBody>): Promise<Tender> {
      requireApproved(user);
      let id: string;
      try {
        id = await db.transaction(async (tx) => {
          const load = await loads.stateForOffer(tx, body.loadId, 'update');
          if (!load || load.deleted || load.shipper_id !== user.id) throw new AppError('NOT_FOUND');
          const refusal = loadRefusal(load);
          if (refusal) throw new AppError(refusal);
          const fromVendors = body.vendorIds.length && vendors ? await vendors.accounts(tx, user.id, body.vendorIds) : [];
          if (fromVendors.length !== body.vendorIds.length || fromVendors.some((v) => !v.userId)) throw new AppError('VENDOR_NOT_LINKED');
          const carrierIds = [...new Set([...body.carrierIds, ...fromVendors.map((v) => v.userId!)])];
          const ok = await repo.invitableAccounts(tx, carrierIds);
          if (carrierIds.some((c) => c === user.id || !ok.has(c))) throw new AppError('TENDER_INVITEE_INVALID');
          if (relations) for (const c of carrierIds) if (await relations.blockedBetween(tx, user.id, c)) throw new AppError('USER_BLOCKED');
          const id = newId();
          const deadline = new Date(body.deadline);
          const waterfall = body.mode === 'waterfall';
          await repo.insertTender(
            tx,
            {
              id,
              loadId: load.id,
              ownerId: user.id,
              mode: body.mode,
              deadline,
              targetRate: body.targetRateSar ?? null,
              stepMinutes: body.stepMinutes,
              postOnClose: body.postToBoardOnClose,
              status: 'open',
            },
            // created waiting; inviting is the lifecycle's 'invite' (below, same transaction)
            carrierIds.map((carrierId, i) => ({ id: newId(), tenderId: id, carrierId, position: i + 1, status: 'waiting' as const })),
          );
          await publish(tx, {
            type: 'tender.created',
            aggregateType: 'load',
            aggregateId: load.id,
            actorId: actingUser(user),
            data: {
              tenderId: id,
              mode: body.mode,
              deadline: deadline.toISOString(),
              invitedIds: carrierIds,
              ...(body.targetRateSar ? { targetRateSar: body.targetRateSar } : {}),
            },
          });
          const t = (await repo.tenderState(tx, id, true))!;
          if (waterfall) await inviteNext(tx, t, actingUser(user));
          else
            for (const i of await repo.invitesIn(tx, id, ['waiting']))
              await transitionInvite(tx, t, i.id, 'invite', actingUser(user), { position: i.position }, { invitedWindowEndsAt: null });
          return id;
        });
      } catch (e) {
        if (dbErrorCode(e) === '23505') throw new AppError('TENDER_EXISTS');
        throw e;
      }
      return get(user, id);
    },

    /** GET /tenders?tab=sent|received: keyset pages, newest first; no total. */
    async list(user: CurrentUser, q: { tab: TenderTab; limit: number; cursor?: string }): Promise<TenderPage> {
      const page = q.tab === 'sent' ? await repo.sentIds(db, user.id, q.limit, q.cursor) : await repo.receivedIds(db, user.id, q.limit, q.cursor);
      return { items: await hydrate(db, page.ids, user.id), nextCursor: page.nextCursor };
    },

    /**
     * POST /tenders/:id/answer — the invited carrier answers: accept (amount = the target rate,
     * else the load's price), counter (`amountSar`) or decline (tender.answered). NOT_FOUND when
     * I am not invited (or my waterfall turn has not come); TENDER_NOT_OPEN when the tender is
     * no longer open or past its deadline; TENDER_NOT_YOUR_TURN when my waterfall turn ended;
     * TENDER_ALREADY_ANSWERED; USER_BLOCKED; SHIPMENT_ALREADY_ASSIGNED / SHIPMENT_CANCELLED when the
     * load was booked or cancelled otherwise meanwhile. In waterfall a decline or counter invites the next
     * carrier at once.
     */
    async answer(user: CurrentUser, id: string, body: z.output<typeof tenderAnswerBody>): Promise<Tender> {
      requireApproved(user);
      await db.transaction(async (tx) => {
        const t = await repo.tenderState(tx, id, true);
        if (!t) throw new AppError('NOT_FOUND');
        const inv = await repo.inviteOf(tx, id, user.id);
        if (!inv || inv.status === 'waiting') throw new AppError('NOT_FOUND');
        if (t.status !== 'open' || t.past_deadline) throw new AppError('TENDER_NOT_OPEN');
        if (inv.status === 'expired' || (inv.status === 'invited' && inv.window_ended)) throw new AppError('TENDER_NOT_YOUR_TURN');
        if (inv.status !== 'invited') throw new AppError('TENDER_ALREADY_ANSWERED');
        if (relations && (await relations.blockedBetween(tx, t.owner_id, user.id))) throw new AppError('USER_BLOCKED');
        // the load was booked, cancelled or expired meanwhile (an ordinary offer, the owner): bidding is closed
        const load = await loads.stateForOffer(tx, t.load_id, 'none');
        const refusal = load ? loadRefusal(load) : 'SHIPMENT_CANCELLED';
        if (refusal) throw new AppError(refusal === 'TENDER_LOAD_NOT_OPEN' ? 'TENDER_NOT_OPEN' : refusal);
        let amount: string | null = null;
        if (body.action === 'accept') amount = t.target_rate ?? load!.price;
        else if (body.action === 'counter') amount = body.amountSar!;
        await transitionInvite(
          tx,
          t,
          inv.id,
          body.action,
          actingUser(user),
          { answer: body.action, ...(amount ? { amountSar: amount } : {}) },
          { amount, answered: true },
        );
        if (t.mode === 'waterfall' && body.action !== 'accept') await inviteNext(tx, t, actingUser(user));
      });
      return get(user, id);
    },

    /**
     * POST /tenders/:id/award — the owner awards an accepted or countered answer
     * (TENDER_NOT_AWARDABLE otherwise): one transaction, the tender row locked FOR UPDATE first
     * (racing awards queue on it; the losers see it awarded: TENDER_NOT_OPEN). The load is booked
     * through the offers module's booking path at the answered amount (offer.accepted,
     * load.booked), then tender.invite_awarded, tender.awarded and tender.invite_closed for
     * every other open invite. PLAN_REQUIRED without an active plan (as accepting an offer);
     * SHIPMENT_ALREADY_ASSIGNED / SHIPMENT_CANCELLED when the load is no longer open.
     */
    async award(user: CurrentUser, id: string, inviteId: string): Promise<Tender> {
      requireApproved(user);
      if (!user.activeSubscriptionId) throw new AppError('PLAN_REQUIRED');
      try {
        await db.transaction(async (tx) => {
          const t = await repo.tenderState(tx, id, true);
          if (!t || t.owner_id !== user.id) throw new AppError('NOT_FOUND');
          if (t.status !== 'open') throw new AppError('TENDER_NOT_OPEN');
          const inv = await repo.inviteState(tx, inviteId, true);
          if (!inv || inv.tender_id !== id) throw new AppError('NOT_FOUND');
          if ((inv.status !== 'accepted' && inv.status !== 'countered') || !inv.amount) throw new AppError('TENDER_NOT_AWARDABLE');
          if (relations && (await relations.blockedBetween(tx, user.id, inv.carrier_id))) throw new AppError('USER_BLOCKED');
          const offerId = await offers.bookForTender(tx, {
            loadId: t.load_id,
            carrierId: inv.carrier_id,
            priceSar: inv.amount,
            actorId: actingUser(user),
            tenderId: id,
          });
          await transitionInvite(tx, t, inv.id, 'award', actingUser(user), { amountSar: inv.amount }, {}, 'TENDER_NOT_AWARDABLE');
          await transitionTender(
            tx,
            id,
            'award',
            actingUser(user),
            { inviteId: inv.id, carrierId: inv.carrier_id, amountSar: inv.amount, offerId },
            { awardedInviteId: inv.id },
          );
          await closeOpenInvites(tx, t, actingUser(user), 'awarded', inv.id);
        });
      } catch (e) {
        // the partial unique indexes (one accepted offer per load, one awarded invite per tender)
        if (dbErrorCode(e) === '23505') throw new AppError('SHIPMENT_ALREADY_ASSIGNED');
        throw e;
      }
      return get(user, id);
    },

    /** POST /tenders/:id/cancel — the owner cancels an open tender: its open invites close (tender.invite_closed), tender.cancelled. */
    async cancel(user: CurrentUser, id: string): Promise<Tender> {
      await db.transaction(async (tx) => {
        const t = await repo.tenderState(tx, id, true);
        if (!t || t.owner_id !== user.id) throw new AppError('NOT_FOUND');
        if (t.status !== 'open') throw new AppError('TENDER_NOT_OPEN');
        await closeOpenInvites(tx, t, actingUser(user), 'cancelled');
        await transitionTender(tx, id, 'cancel', user.id);
      });
      return get(user, id);
    },

    /**
     * The tender job (every minute): open tenders past their deadline close (tender.closed, their
     * open invites tender.invite_closed; the load posted to the board through its lifecycle when
     * postToBoardOnClose and it is unposted), a batch per transaction (SKIP LOCKED); then every
     * waterfall turn that ended unanswered expires (tender.invite_expired) and the next carrier is
     * invited (tender.invited), one tender per transaction. Open tenders whose load was booked or
     * cancelled meanwhile close with reason load_unavailable. Both reads use partial indexes
     * (tenders_open_deadline, tender_invites_window_due): only what is due. Returns
     * { closed, advanced }.
     */
    async processDue(batch = 200): Promise<{ closed: number; advanced: number }> {
      let closed = 0;
      for (;;) {
        const n = await db.transaction(async (tx) => {
          const due = await repo.dueTenders(tx, batch);
          for (const tid of due) {
            const t = (await repo.tenderState(tx, tid, true))!;
            await closeTender(tx, t, 'deadline');
          }
          return due.length;
        });
        closed += n;
        if (n < batch) break;
      }
      let advanced = 0;
      for (const tid of await repo.dueWindows(db, batch)) {
        await db.transaction(async (tx) => {
          const t = await repo.tenderState(tx, tid, true);
          if (!t || t.status !== 'open') return;
          for (const inv of await repo.invitesIn(tx, tid, ['invited'])) {
            if (!inv.window_ended) continue;
            await transitionInvite(tx, t, inv.id, 'expire', null);
            advanced++;
          }
          const load = await loads.stateForOffer(tx, t.load_id, 'none');
          if (!load || loadRefusal(load)) return closeTender(tx, t, 'load_unavailable');
          if (!t.past_deadline && !(await repo.invitesIn(tx, tid, ['invited'])).length) await inviteNext(tx, t, null);
        });
      }
      return { closed, advanced };
    },
  };
}

export type TendersService = ReturnType<typeof createTendersService>;
