import { PROFILE_STATUS } from '@masar/shared';
import type { CurrentUser } from '../modules/auth/auth.types.ts';
import { AppError } from './errors.ts';

/**
 * Marketplace writes need an approved account (issue 6; spec §4 "pending approval"). A pending
 * or rejected account may prepare — profile, password, fleet (vehicles, trailers, drivers),
 * vendors and invites, documents, CSV import/export of those — but not trade: posting, editing,
 * reposting or duplicating loads, importing shipments, bidding, countering, accepting,
 * rejecting or withdrawing offers. Services call this (the route config repeats it for the
 * OpenAPI docs and an early answer). Throws 403 ACCOUNT_NOT_APPROVED.
 */
export function requireApproved(user: Pick<CurrentUser, 'status'>): void {
  if (user.status !== PROFILE_STATUS.approved) throw new AppError('ACCOUNT_NOT_APPROVED');
}
