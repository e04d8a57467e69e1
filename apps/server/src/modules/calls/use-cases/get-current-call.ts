import type { CurrentCall } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../calls.repository.ts';
import { ringSecondsOf, toCall, withIce } from '../calls.shared.ts';
import type { CallsDeps } from '../deps.ts';
import { expireDueCalls } from './expire-due-calls.ts';

export type GetCurrentCallDeps = Pick<CallsDeps, 'db' | 'ice' | 'ringSeconds' | 'chat'>;

/** GET /meetings/v1/current: my account's ringing or active call, with ICE servers (a reloaded tab finds it). */
export async function getCurrentCall(deps: GetCurrentCallDeps, user: CurrentUser): Promise<CurrentCall> {
  await expireDueCalls(deps);
  const r = await repo.liveCallOf(deps.db, user.id);
  return { call: r ? withIce(deps.ice, toCall(r, user.id, ringSecondsOf(deps)), user) : null };
}
