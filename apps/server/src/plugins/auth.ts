import fp from 'fastify-plugin';
import { PROFILE_STATUS, type AccountType } from '@masar/shared';
import type { SessionChecks } from '../modules/auth/auth.service.ts';
import { AppError } from '../lib/errors.ts';
import { verifyAccessToken } from '../lib/tokens.ts';

/** Who is calling, from a valid access token. */
export interface AuthContext {
  sessionId: string;
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

/**
 * Per-route access rules, set in the route's `config`:
 * - `auth`: 'none' (no token needed; parsed when present), 'token' (any valid token, guest
 *   included), 'user' (a signed-in user). Default 'token'.
 * - `roles`: account types allowed (403 WRONG_ROLE otherwise).
 * - `approved`: the account must be approved (403 ACCOUNT_NOT_APPROVED).
 * - `plan`: the account must have an active subscription (403 PLAN_REQUIRED).
 */
export interface AccessRules {
  auth?: 'none' | 'token' | 'user';
  roles?: AccountType[];
  approved?: boolean;
  plan?: boolean;
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface FastifyContextConfig extends AccessRules {}
  interface FastifyRequest {
    auth: AuthContext | null;
    user: CurrentUser | null;
  }
  interface FastifyInstance {
    /** The signed-in user (throws NOT_SIGNED_IN when the request has none). */
    requireUser(req: FastifyRequest): CurrentUser;
  }
}

export default fp<{ sessions: SessionChecks; jwtSecret: string }>(async (app, opts) => {
  app.decorateRequest('auth', null);
  app.decorateRequest('user', null);
  app.decorate('requireUser', (req) => {
    if (!req.user) throw new AppError('NOT_SIGNED_IN');
    return req.user;
  });

  app.addHook('onRequest', async (req) => {
    // unknown paths (no route) fall through to the 404 handler instead of asking for a token
    if (!req.url.startsWith('/api/v1/') || !req.routeOptions.url) return;
    const rules: AccessRules = req.routeOptions.config ?? {};
    const mode = rules.auth ?? 'token';
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (!token) {
      if (mode === 'none') return;
      throw new AppError(mode === 'user' ? 'NOT_SIGNED_IN' : 'UNAUTHORIZED', { status: 401 });
    }
    const v = await verifyAccessToken(token, opts.jwtSecret);
    if (!v.ok) {
      if (mode === 'none') return;
      throw new AppError(v.reason === 'expired' ? 'TOKEN_EXPIRED' : 'UNAUTHORIZED');
    }
    const c = v.claims;
    const auth: AuthContext = {
      sessionId: c.sid,
      userId: c.typ === 'user' ? c.sub : null,
      accountType: (c.at as AccountType) ?? null,
      isGuest: c.typ !== 'user',
    };
    if (mode !== 'user' && !rules.roles && !rules.approved && !rules.plan) {
      // Logout, password change/reset and refresh-token reuse revoke the session: its access
      // token stops working at once on every route, not when it expires (issue 6). One
      // primary-key lookup, no cache, so a revocation made by another instance is seen too.
      if (!(await opts.sessions.sessionLive(c.sid))) {
        if (mode === 'none') return;
        throw new AppError('UNAUTHORIZED');
      }
      req.auth = auth;
      return;
    }
    req.auth = auth;
    if (!req.auth.userId) throw new AppError('NOT_SIGNED_IN', { status: 403 });
    const row = await opts.sessions.currentUser(req.auth.userId, req.auth.sessionId);
    if (!row) throw new AppError('UNAUTHORIZED');
    const { sessionActive, ...user } = row;
    // status first: a deleted account's revoked session still hears "deleted" (spec §4 dialog)
    if (user.status === PROFILE_STATUS.suspended) throw new AppError('ACCOUNT_SUSPENDED');
    if (user.status === PROFILE_STATUS.deleted) throw new AppError('ACCOUNT_DELETED');
    if (!sessionActive) throw new AppError('UNAUTHORIZED');
    req.user = user;
    if (rules.roles && !rules.roles.includes(user.accountType)) throw new AppError('WRONG_ROLE');
    if (rules.approved && user.status !== PROFILE_STATUS.approved) throw new AppError('ACCOUNT_NOT_APPROVED');
    if (rules.plan && !user.activeSubscriptionId) throw new AppError('PLAN_REQUIRED');
  });
});
