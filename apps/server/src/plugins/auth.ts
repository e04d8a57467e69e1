import fp from 'fastify-plugin';
import { API_KEY_HEADER, PROFILE_STATUS, type AccountType, type ApiKeyScope, type TeamRole } from '@masar/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeysService, KeyIdentity } from '../modules/apikeys/apikeys.service.ts';
import type { AuthContext, CurrentUser } from '../modules/auth/auth.types.ts';
import type { SessionChecks } from '../modules/auth/auth.service.ts';
import { AppError } from '../lib/errors.ts';
import { verifyAccessToken } from '../lib/tokens.ts';
import { teamRoleAllows } from '../modules/team/team.access.ts';

export type { AuthContext, CurrentUser } from '../modules/auth/auth.types.ts';

/**
 * Per-route access rules, set in the route's `config`:
 * - `auth`: 'none' (no token needed; parsed when present), 'token' (any valid token, guest
 *   included), 'user' (a signed-in user). Default 'token'.
 * - `roles`: account types allowed (403 WRONG_ROLE otherwise).
 * - `approved`: the account must be approved (403 ACCOUNT_NOT_APPROVED).
 * - `plan`: the account must have an active subscription (403 PLAN_REQUIRED).
 * - `sessionOnly`: a signed-in session only; an API key is refused (API_KEY_NOT_ALLOWED).
 * - `acceptKey`: on an `auth: 'none'` route, an X-API-Key that is sent is still authenticated
 *   (scope, rate limit, user rules) instead of ignored (the positions ingest, which a driver's
 *   trip token may call too).
 *
 * An API key (header X-API-Key, issue 11) works on routes of the areas it can be scoped to
 * (loads, offers, fleet, vendors, csv, files: GET needs `<area>:read`, other methods
 * `<area>:write`) and on reference data; it acts as its owner, under the same role, approval
 * and plan rules, limited to its own requests per minute (shared through Redis when set).
 *
 * Team members (issue 8): a signed-in user with an active team membership acts for the owner:
 * `req.user`/`req.auth` carry the owner's id and account type (so every ownership check elsewhere
 * holds) plus `memberId`, `memberRole` and `actorId` (the member's own id). The membership is read
 * on every request (in the user query, or joined to the session lookup), so a removal or a role
 * change counts on the member's next request. The role is checked here, once, by
 * `teamRoleAllows` (TEAM_ROLE_FORBIDDEN 403), in every authentication mode (issue 22): a session
 * on any route, including the open routes that act for an account (`acceptKey`: the positions
 * ingest), and an API key made by a member (it acts under the member's current role, and is
 * refused as API_KEY_INVALID once they left the team). `team: 'self'` routes act for the
 * member's own user (own password, own invitations, leaving, the profile).
 */
export interface AccessRules {
  auth?: 'none' | 'token' | 'user';
  roles?: AccountType[];
  approved?: boolean;
  plan?: boolean;
  sessionOnly?: boolean;
  acceptKey?: boolean;
  /** 'self': a team member acts as their own user here, not for the owner (no role check). */
  team?: 'self';
}

const KEY_AREAS = new Set(['loads', 'offers', 'fleet', 'vendors', 'csv', 'files']);

/** The scope a key needs for a route: 'public' for reference data, null when keys are refused. */
export function apiKeyScopeFor(tags: readonly string[] | undefined, method: string): ApiKeyScope | 'public' | null {
  const area = tags?.[0];
  if (area === 'reference') return 'public';
  if (!area || !KEY_AREAS.has(area)) return null;
  return `${area}:${method === 'GET' || method === 'HEAD' ? 'read' : 'write'}` as ApiKeyScope;
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

export default fp<{ sessions: SessionChecks; apiKeys: ApiKeysService; jwtSecret: string }>(async (app, opts) => {
  app.decorateRequest('auth', null);
  app.decorateRequest('user', null);
  // per-key request budget, in the rate-limit plugin's store (Redis when REDIS_URL is set)
  const keyLimiter = app.rateLimit({
    max: (req) => keyOf(req)?.ratePerMinute ?? 120,
    timeWindow: 60_000,
    keyGenerator: (req) => `apikey:${keyOf(req)?.keyId ?? 'none'}`,
  });
  const identities = new WeakMap<FastifyRequest, KeyIdentity>();
  const keyOf = (req: FastifyRequest) => identities.get(req);

  /** Load the user fresh and apply the route's rules (status, role, approval, plan). */
  async function applyUserRules(req: FastifyRequest, rules: AccessRules, userId: string, sessionId?: string) {
    const row = await opts.sessions.currentUser(userId, sessionId);
    if (!row) throw new AppError('UNAUTHORIZED');
    const { sessionActive, membership, ...own } = row;
    // status first: a deleted account's revoked session still hears "deleted" (spec §4 dialog)
    if (own.status === PROFILE_STATUS.suspended) throw new AppError('ACCOUNT_SUSPENDED');
    if (own.status === PROFILE_STATUS.deleted) throw new AppError('ACCOUNT_DELETED');
    if (!sessionActive) throw new AppError('UNAUTHORIZED');
    let user: CurrentUser = own;
    if (membership && rules.team !== 'self') {
      const owner = await opts.sessions.currentUser(membership.ownerId);
      if (!owner) throw new AppError('UNAUTHORIZED');
      const { sessionActive: _s, membership: _m, ...o } = owner;
      user = { ...o, memberId: membership.id, memberRole: membership.role, actorId: own.id };
      if (req.auth)
        Object.assign(req.auth, { userId: o.id, accountType: o.accountType, memberId: membership.id, memberRole: membership.role, actorId: own.id });
      checkRole(req, rules, membership.role);
      if (o.status === PROFILE_STATUS.suspended) throw new AppError('ACCOUNT_SUSPENDED');
      if (o.status === PROFILE_STATUS.deleted) throw new AppError('ACCOUNT_DELETED');
    }
    req.user = user;
    if (rules.roles && !rules.roles.includes(user.accountType)) throw new AppError('WRONG_ROLE');
    if (rules.approved && user.status !== PROFILE_STATUS.approved) throw new AppError('ACCOUNT_NOT_APPROVED');
    if (rules.plan && !user.activeSubscriptionId) throw new AppError('PLAN_REQUIRED');
  }

  /** A team member's role against the route (one rule for every route: modules/team/team.access.ts). */
  function checkRole(req: FastifyRequest, rules: AccessRules, role: TeamRole) {
    if (rules.team === 'self') return;
    if (!teamRoleAllows(role, req.method, req.routeOptions.schema?.tags?.[0], req.url.split('?')[0])) throw new AppError('TEAM_ROLE_FORBIDDEN');
  }

  /** A request with an API key and no bearer token. */
  async function authenticateKey(req: FastifyRequest, reply: FastifyReply, rules: AccessRules, rawKey: string) {
    const identity = await opts.apiKeys.authenticate(rawKey);
    if (!identity) throw new AppError('API_KEY_INVALID');
    const scope = rules.sessionOnly ? null : apiKeyScopeFor(req.routeOptions.schema?.tags, req.method);
    if (scope === null) throw new AppError('API_KEY_NOT_ALLOWED');
    if (scope !== 'public' && !identity.scopes.includes(scope)) throw new AppError('API_KEY_SCOPE');
    // a key made by a team member acts under that member's role today, and dies with the membership
    if (identity.createdBy && identity.createdBy !== identity.ownerId) {
      const m = await opts.sessions.membershipOf(identity.createdBy);
      if (!m || m.ownerId !== identity.ownerId) throw new AppError('API_KEY_INVALID');
      checkRole(req, rules, m.role);
    }
    identities.set(req, identity);
    await keyLimiter.call(app, req, reply);
    const row = await opts.sessions.currentUser(identity.ownerId);
    req.auth = {
      sessionId: `apikey:${identity.keyId}`,
      apiKeyId: identity.keyId,
      userId: identity.ownerId,
      accountType: row?.accountType ?? null,
      isGuest: false,
    };
    // a key acts as the user who made it (an admin member's key is the owner's already)
    await applyUserRules(req, { ...rules, team: 'self' }, identity.ownerId);
  }
  app.decorate('requireUser', (req) => {
    if (!req.user) throw new AppError('NOT_SIGNED_IN');
    return req.user;
  });

  app.addHook('onRequest', async (req, reply) => {
    // unknown paths (no route) fall through to the 404 handler instead of asking for a token
    if (!req.url.startsWith('/api/v1/') || !req.routeOptions.url) return;
    const rules: AccessRules = req.routeOptions.config ?? {};
    const mode = rules.auth ?? 'token';
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const rawKey = req.headers[API_KEY_HEADER];
    // public routes ignore a key (their own limits apply); a bearer token wins over a key
    if (!token && (mode !== 'none' || rules.acceptKey) && typeof rawKey === 'string' && rawKey !== '') return authenticateKey(req, reply, rules, rawKey);
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
      const acting = await opts.sessions.sessionActing(c.sid);
      if (!acting) {
        if (mode === 'none') return;
        throw new AppError('UNAUTHORIZED');
      }
      const m = acting.membership;
      if (m && auth.userId && rules.team !== 'self') {
        Object.assign(auth, { userId: m.ownerId, accountType: m.ownerType, memberId: m.id, memberRole: m.role, actorId: auth.userId });
        if (mode === 'none' && !teamRoleAllows(m.role, req.method, req.routeOptions.schema?.tags?.[0], req.url.split('?')[0])) {
          // an open route that acts for an account (the positions ingest) refuses the role like any
          // other route; other open routes go on without the owner's identity
          if (rules.acceptKey) throw new AppError('TEAM_ROLE_FORBIDDEN');
          return;
        }
        req.auth = auth;
        if (mode !== 'none') checkRole(req, rules, m.role);
        return;
      }
      req.auth = auth;
      return;
    }
    req.auth = auth;
    if (!req.auth.userId) throw new AppError('NOT_SIGNED_IN', { status: 403 });
    await applyUserRules(req, rules, req.auth.userId, req.auth.sessionId);
  });
});
