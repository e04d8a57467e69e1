import type { z } from 'zod';
import type { createTenderBody, Tender } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import { requireApproved } from '../../../lib/access.ts';
import { AppError, dbErrorCode } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { actingUser } from '../../auth/auth.types.ts';
import { publish } from '../../events/events.service.ts';
import type { TendersDeps } from '../deps.ts';
import { inviteNext, transitionInvite } from '../lifecycle.ts';
import { loadRefusal } from '../tenders.shared.ts';
import * as repo from '../tenders.repository.ts';
import { getTender } from './get-tender.ts';

export type CreateTenderDeps = Pick<TendersDeps, 'db' | 'loads' | 'vendors' | 'relations'>;
type Body = z.output<typeof createTenderBody>;

/** The carriers to invite: the chosen accounts and my vendors' accounts, each invitable and not blocked. */
async function inviteesOf({ vendors, relations }: Pick<TendersDeps, 'vendors' | 'relations'>, tx: DbOrTx, user: CurrentUser, body: Body) {
  const fromVendors = body.vendorIds.length && vendors ? await vendors.accounts(tx, user.id, body.vendorIds) : [];
  if (fromVendors.length !== body.vendorIds.length || fromVendors.some((v) => !v.userId)) throw new AppError('VENDOR_NOT_LINKED');
  const carrierIds = [...new Set([...body.carrierIds, ...fromVendors.map((v) => v.userId!)])];
  const ok = await repo.invitableAccounts(tx, carrierIds);
  if (carrierIds.some((c) => c === user.id || !ok.has(c))) throw new AppError('TENDER_INVITEE_INVALID');
  if (relations) for (const c of carrierIds) if (await relations.blockedBetween(tx, user.id, c)) throw new AppError('USER_BLOCKED');
  return carrierIds;
}

/**
 * POST /tenders. The load must be mine (NOT_FOUND otherwise), unposted or posted and not
 * booked (TENDER_LOAD_NOT_OPEN, SHIPMENT_ALREADY_ASSIGNED, SHIPMENT_CANCELLED); one open
 * tender per load (TENDER_EXISTS). Invitees: carrier or broker accounts other than mine, not
 * suspended (TENDER_INVITEE_INVALID), not blocked either way (USER_BLOCKED); vendor ids
 * become their accounts (VENDOR_NOT_LINKED when one has none). Publishes tender.created and
 * tender.invited for each carrier invited now (all, or the first in waterfall).
 */
export async function createTender(deps: CreateTenderDeps, user: CurrentUser, body: Body): Promise<Tender> {
  const { db, loads } = deps;
  requireApproved(user);
  let id: string;
  try {
    id = await db.transaction(async (tx) => {
      const load = await loads.stateForOffer(tx, body.loadId, 'update');
      if (!load || load.deleted || load.shipper_id !== user.id) throw new AppError('NOT_FOUND');
      const refusal = loadRefusal(load);
      if (refusal) throw new AppError(refusal);
      const carrierIds = await inviteesOf(deps, tx, user, body);
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
  return getTender(deps, user, id);
}
