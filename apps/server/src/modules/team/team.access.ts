import type { TeamRole } from '@masar/shared';

/**
 * What a team member's role may do (issue 8; docs/account.md "Team members"). The ONE place the
 * rule lives: the auth plugin asks it on every request of a member acting for an owner, by the
 * route's area (its first OpenAPI tag) and the HTTP method, so no route checks roles itself.
 *
 * - admin: everything (team, billing, verification, API keys and webhooks, account settings).
 * - dispatcher: reads everything but the admin areas; writes loads, offers, assignment, fleet,
 *   vendors, CSV, files, Bayan, trips (tracking) and the address book. No billing, no team, no
 *   integrations, no verification, no account settings (profile, business profile, contact info).
 * - viewer: GET (and HEAD) only, outside the admin areas.
 *
 * Routes marked `team: 'self'` (own password, own invitations, leaving the team, the profile)
 * act for the member's own user and are not asked here.
 */
const ADMIN_AREAS = new Set(['billing', 'team', 'integrations', 'verification']);
const DISPATCH_AREAS = new Set(['loads', 'offers', 'assignment', 'fleet', 'vendors', 'csv', 'files', 'bayan', 'trips']);
const DISPATCH_PATHS = ['/api/v1/account/addresses'];

export function teamRoleAllows(role: TeamRole, method: string, area: string | undefined, url: string): boolean {
  if (role === 'admin') return true;
  if (area && ADMIN_AREAS.has(area)) return false;
  const read = method === 'GET' || method === 'HEAD';
  if (read) return true;
  if (role !== 'dispatcher') return false;
  return (area !== undefined && DISPATCH_AREAS.has(area)) || DISPATCH_PATHS.some((p) => url === p || url.startsWith(`${p}/`));
}
