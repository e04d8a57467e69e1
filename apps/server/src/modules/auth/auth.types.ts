import type { AccountType } from '@masar/shared';

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
}

/** The signed-in user's state, loaded fresh for routes with auth 'user'. */
export interface CurrentUser {
  id: string;
  accountType: AccountType;
  status: number;
  isFirstTimeApproved: boolean;
  companyName: string;
  activeSubscriptionId: string | null;
}
