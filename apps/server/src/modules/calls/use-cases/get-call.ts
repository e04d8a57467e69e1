import type { Call } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { mine, ringSecondsOf, toCall } from '../calls.shared.ts';
import type { CallsDeps } from '../deps.ts';

export type GetCallDeps = Pick<CallsDeps, 'db' | 'ringSeconds'>;

/** GET /meetings/v1/meeting/:meetingId: a call I am a side of (NOT_FOUND otherwise). */
export async function getCall(deps: GetCallDeps, user: CurrentUser, meetingId: string): Promise<Call> {
  return toCall(await mine(deps.db, user, meetingId), user.id, ringSecondsOf(deps));
}
