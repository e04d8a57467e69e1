import type { DbOrTx } from '../../../db/client.ts';
import * as repo from '../calls.repository.ts';
import { ringSecondsOf } from '../calls.shared.ts';
import type { CallsDeps } from '../deps.ts';
import { endCall, lostTransition } from '../lifecycle.ts';

export type ExpireDueCallsDeps = Pick<CallsDeps, 'db' | 'ringSeconds' | 'chat'>;

/** End a ringing call unanswered (missed: cancelled or timeout, with its line), in `tx`; false when it no longer rang. */
export async function missCall(
  { chat }: Pick<CallsDeps, 'chat'>,
  tx: DbOrTx,
  r: repo.CallRow,
  reason: 'cancelled' | 'timeout',
  actorId: string | null,
): Promise<boolean> {
  try {
    await endCall(chat, tx, r, reason === 'timeout' ? 'timeout' : 'cancel', actorId);
    return true;
  } catch (e) {
    if (lostTransition(e)) return false;
    throw e;
  }
}

/**
 * Ringing calls past their ring time become missed (reason timeout; call.missed → the
 * callee's "missed call" notification). Run by the `calls.expire` job after each call's ring
 * time and every minute as a safety net, and before a call is made or answered. `now` for tests.
 */
export async function expireDueCalls(deps: ExpireDueCallsDeps, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - ringSecondsOf(deps) * 1000);
  let n = 0;
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const ids = await repo.ringingBefore(tx, before, 50);
      let k = 0;
      for (const id of ids) if (await missCall(deps, tx, (await repo.callById(tx, id))!, 'timeout', null)) k++;
      return { found: ids.length, k };
    });
    n += done.k;
    if (done.found < 50) return n;
  }
}
