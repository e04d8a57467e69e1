import { fromHalalas, type Detention, type DetentionDecisionBody } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import { actingUser, type CurrentUser } from '../../auth/auth.types.ts';
import { publish } from '../../events/events.service.ts';
import type { DetentionDeps } from '../deps.ts';
import * as repo from '../detention.repository.ts';
import { computeDetention } from './get-detention.ts';

/**
 * POST /loads/:id/detention/decide (issue 50): the shipper accepts a stop's detention as computed
 * now (after the truck left the stop: DETENTION_STILL_ACCRUING) — a ledger journal
 * `detention.accepted` (the shipper's receivable −amount, the carrier's payable +amount) — or
 * disputes it with a reason. Once per stop (DETENTION_ALREADY_DECIDED, also under a race: the
 * decision's primary key), with load.detention_decided. Errors: NOT_FOUND, FORBIDDEN (the carrier),
 * DETENTION_NOT_AVAILABLE.
 */
export async function decideDetention(deps: DetentionDeps, user: CurrentUser, loadId: string, body: DetentionDecisionBody): Promise<Detention> {
  const now = (deps.now ?? (() => new Date()))();
  await deps.db.transaction(async (tx) => {
    const { terms, view } = await computeDetention(tx, loadId, now);
    if (user.id === terms.carrierId) throw new AppError('FORBIDDEN');
    if (user.id !== terms.shipperId || !terms.carrierId) throw new AppError('NOT_FOUND');
    const stop = view.stops.find((s) => s.stop === body.stop)!;
    if (stop.decision) throw new AppError('DETENTION_ALREADY_DECIDED');
    const accepted = body.decision === 'accept';
    if (accepted && (stop.accruing || !stop.arrival)) throw new AppError('DETENTION_STILL_ACCRUING');
    const amount = accepted ? Math.round(Number(stop.amountSar) * 100) : 0;
    const row = {
      loadId,
      stop: body.stop,
      decision: accepted ? ('accepted' as const) : ('disputed' as const),
      amountHalalas: amount,
      billableMinutes: stop.billableMinutes,
      reason: body.reason ?? null,
      decidedBy: actingUser(user),
    };
    if (!(await repo.insertDecision(tx, row))) throw new AppError('DETENTION_ALREADY_DECIDED');
    if (amount > 0)
      await deps.ledgerPost(tx, {
        factKind: 'detention.accepted',
        factId: `${loadId}:${body.stop}`,
        memo: `detention at ${body.stop}: ${stop.billableMinutes} billable minutes`,
        postings: [
          { owner: terms.shipperId, account: 'receivable', amount: -amount },
          { owner: terms.carrierId, account: 'payable', amount },
        ],
      });
    await publish(tx, {
      type: 'load.detention_decided',
      aggregateType: 'load',
      aggregateId: loadId,
      actorId: actingUser(user),
      data: { stop: body.stop, decision: row.decision, amountSar: fromHalalas(amount), billableMinutes: stop.billableMinutes, reason: row.reason },
    });
  });
  return (await computeDetention(deps.db, loadId, now)).view;
}
