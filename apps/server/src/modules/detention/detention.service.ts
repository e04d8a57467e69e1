import type { DetentionDecisionBody } from '@masar/shared';
import type { CurrentUser } from '../auth/auth.types.ts';
import type { DetentionDeps } from './deps.ts';
import { decideDetention } from './use-cases/decide-detention.ts';
import { getDetention } from './use-cases/get-detention.ts';

/** Detention billed from the trip's own step times (issue 50; docs/billing.md). */
export function createDetentionService(deps: DetentionDeps) {
  return {
    get: (user: CurrentUser, loadId: string) => getDetention(deps, user, loadId),
    decide: (user: CurrentUser, loadId: string, body: DetentionDecisionBody) => decideDetention(deps, user, loadId, body),
  };
}
export type DetentionService = ReturnType<typeof createDetentionService>;
