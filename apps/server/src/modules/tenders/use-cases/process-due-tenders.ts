import type { TendersDeps } from '../deps.ts';
import { inviteNext, transitionInvite } from '../lifecycle.ts';
import { closeTender, loadRefusal } from '../tenders.shared.ts';
import * as repo from '../tenders.repository.ts';

export type ProcessDueTendersDeps = Pick<TendersDeps, 'db' | 'loads'>;

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
export async function processDueTenders(deps: ProcessDueTendersDeps, batch = 200): Promise<{ closed: number; advanced: number }> {
  const { db, loads } = deps;
  let closed = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      const due = await repo.dueTenders(tx, batch);
      for (const tid of due) {
        const t = (await repo.tenderState(tx, tid, true))!;
        await closeTender(deps, tx, t, 'deadline');
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
      if (!load || loadRefusal(load)) return closeTender(deps, tx, t, 'load_unavailable');
      if (!t.past_deadline && !(await repo.invitesIn(tx, tid, ['invited'])).length) await inviteNext(tx, t, null);
    });
  }
  return { closed, advanced };
}
