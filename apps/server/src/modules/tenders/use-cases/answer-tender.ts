import type { z } from 'zod';
import type { Tender, tenderAnswerBody } from '@masar/shared';
import { requireApproved } from '../../../lib/access.ts';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { actingUser } from '../../auth/auth.types.ts';
import type { TendersDeps } from '../deps.ts';
import { inviteNext, transitionInvite } from '../lifecycle.ts';
import { loadRefusal } from '../tenders.shared.ts';
import * as repo from '../tenders.repository.ts';
import { getTender } from './get-tender.ts';

export type AnswerTenderDeps = Pick<TendersDeps, 'db' | 'loads' | 'relations'>;

/**
 * POST /tenders/:id/answer — the invited carrier answers: accept (amount = the target rate,
 * else the load's price), counter (`amountSar`) or decline (tender.answered). NOT_FOUND when
 * I am not invited (or my waterfall turn has not come); TENDER_NOT_OPEN when the tender is
 * no longer open or past its deadline; TENDER_NOT_YOUR_TURN when my waterfall turn ended;
 * TENDER_ALREADY_ANSWERED; USER_BLOCKED; SHIPMENT_ALREADY_ASSIGNED / SHIPMENT_CANCELLED when the
 * load was booked or cancelled otherwise meanwhile. In waterfall a decline or counter invites the next
 * carrier at once.
 */
export async function answerTender(deps: AnswerTenderDeps, user: CurrentUser, id: string, body: z.output<typeof tenderAnswerBody>): Promise<Tender> {
  const { db, loads, relations } = deps;
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
  return getTender(deps, user, id);
}
