import type { AccountType, TeamRole } from '@masar/shared';

/** Who is calling, from a valid access token or an API key. */
export interface AuthContext {
  /** the session of the access token; `apikey:<id>` for an API key */
  sessionId: string;
  /** set when the request carries an API key (X-API-Key) instead of a token */
  apiKeyId?: string;
  /** null for guest tokens */
  userId: string | null;
  accountType: AccountType | null;
  isGuest: boolean;
  /** A team member acting for an owner (issue 8): `userId`/`accountType` are the owner's, these the member's. */
  memberId?: string;
  memberRole?: TeamRole;
  /** the member's own user id (who really acts); unset when the user acts for themselves */
  actorId?: string;
}

/** The signed-in user's state, loaded fresh for routes with auth 'user'. */
export interface CurrentUser {
  id: string;
  accountType: AccountType;
  status: number;
  isFirstTimeApproved: boolean;
  companyName: string;
  activeSubscriptionId: string | null;
  /**
   * Set when a team member acts for the owner (issue 8): `id`, `accountType`, status and plan
   * above are the OWNER's (everything they do is the owner's); `memberId` is the team_members
   * row, `memberRole` its role, `actorId` the member's own user id (for audit).
   */
  memberId?: string;
  memberRole?: TeamRole;
  actorId?: string;
}

/**
 * The user who really acts: a team member's own id when it acts for its owner, else the user's.
 * What a domain event's `actorId` names (packages/shared events.ts): the notifications leave out
 * that user, not the whole account, so a member's owner and other members hear of what it did.
 */
export const actingUser = (user: Pick<CurrentUser, 'id' | 'actorId'>): string => user.actorId ?? user.id;
