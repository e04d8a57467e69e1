import { createHash } from 'node:crypto';
import {
  RECENT_SEARCHES_MAX,
  SAVED_SEARCHES_MAX,
  SEARCH_PAGING_KEYS,
  searchLoadsQuery,
  searchTrucksQuery,
  type RecentSearch,
  type SavedSearch,
  type SearchFilters,
  type SearchKind,
} from '@masar/shared';
import type { Db } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { lockAccountCap } from '../../lib/locks.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import * as repo from './searches.repository.ts';

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * The filters of a `kind` search as stored and compared: validated by the search endpoint's own
 * query schema (GET /loads: searchLoadsQuery, GET /searchTrucks: searchTrucksQuery; defaults
 * applied, unknown keys dropped), paging (limit, skip, cursor) removed, a radius without its city
 * removed, booleans as 'true' (false ones dropped: no filter), date-times as UTC ISO strings, keys
 * sorted. Two searches that run the same are equal here. VALIDATION_FAILED (paths `filters.*`)
 * when the filters are not a valid search.
 */
export function normaliseFilters(kind: SearchKind, raw: SearchFilters): SearchFilters {
  // the endpoints read query strings: a boolean arrives as 'true' / 'false'
  const input = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : v]));
  const parsed = (kind === 'loads' ? searchLoadsQuery : searchTrucksQuery).safeParse(input);
  if (!parsed.success) {
    throw new AppError('VALIDATION_FAILED', {
      errors: parsed.error.issues.map((i) => ({ path: ['filters', ...i.path.map(String)].join('.'), message: i.message })),
    });
  }
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(parsed.data as Record<string, unknown>)) {
    if ((SEARCH_PAGING_KEYS as readonly string[]).includes(k) || v === undefined || v === null || v === false) continue;
    if (v === true) out[k] = 'true';
    else if (typeof v === 'string' && ISO_DATE_TIME.test(v)) out[k] = new Date(v).toISOString();
    else if (typeof v === 'string' || typeof v === 'number') out[k] = v;
  }
  if (kind === 'loads') {
    if (out.pickupCityId == null) delete out.radius;
    if (out.dropCityId == null) delete out.dropRadius;
  } else if (out.originCityId == null) delete out.radius;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The unique key of normalised filters: SHA-256 (hex) of their JSON (keys sorted by normaliseFilters). */
export const filterKeyOf = (filters: SearchFilters) => createHash('sha256').update(JSON.stringify(filters)).digest('hex');

const iso = (d: Date) => d.toISOString();
const toSaved = (r: repo.SavedSearchRow): SavedSearch => ({
  id: r.id,
  kind: r.kind as SearchKind,
  name: r.name,
  filters: r.filters as SearchFilters,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
});
const toRecent = (r: repo.RecentSearchRow): RecentSearch => ({
  id: r.id,
  kind: r.kind as SearchKind,
  filters: r.filters as SearchFilters,
  usedAt: iso(r.usedAt),
});

/**
 * Saved and recent searches of loads and trucks (issue 19; spec §2 "saved and recent searches",
 * §7 /recentLoads, /recentLoadsState, /truckFilters, /recentTruckFilters). A saved search is a
 * name and the normalised filters; the same filters twice for one user and kind are refused with
 * DUPLICATE_SEARCH ("duplicate search exists"; the unique index saved_searches_user_filters, so
 * it holds under a race); at most SAVED_SEARCHES_MAX (50) per kind (LIMIT_REACHED; counted under
 * the account's cap lock). Recent searches: the last RECENT_SEARCHES_MAX (10) per kind, recorded
 * by POST /recentSearches; a repeat moves to the top. No events: these are a user's own
 * preferences, like bookmarks (nothing else reacts to them).
 */
export function createSearchesService(deps: { db: Db }) {
  const { db } = deps;
  return {
    async listSaved(user: CurrentUser, kind: SearchKind): Promise<SavedSearch[]> {
      return (await repo.listSaved(db, user.id, kind)).map(toSaved);
    },

    /** Save a search: DUPLICATE_SEARCH (409) when these filters are saved already, LIMIT_REACHED (409) at the cap. */
    async save(user: CurrentUser, body: { kind: SearchKind; name: string; filters: SearchFilters }): Promise<SavedSearch> {
      const filters = normaliseFilters(body.kind, body.filters);
      const filterKey = filterKeyOf(filters);
      return db.transaction(async (tx) => {
        await lockAccountCap(tx, `searches.${body.kind}`, user.id);
        if ((await repo.countSaved(tx, user.id, body.kind)) >= SAVED_SEARCHES_MAX) {
          // a duplicate at the cap is still a duplicate
          if ((await repo.listSaved(tx, user.id, body.kind)).some((s) => s.filterKey === filterKey)) throw new AppError('DUPLICATE_SEARCH');
          throw new AppError('LIMIT_REACHED');
        }
        const row = await repo.insertSaved(tx, { id: newId(), userId: user.id, kind: body.kind, name: body.name, filters, filterKey });
        if (!row) throw new AppError('DUPLICATE_SEARCH');
        return toSaved(row);
      });
    },

    /** Rename one of my saved searches (404 when it is not mine). */
    async rename(user: CurrentUser, id: string, name: string): Promise<SavedSearch> {
      const row = await repo.renameSaved(db, user.id, id, name);
      if (!row) throw new AppError('NOT_FOUND');
      return toSaved(row);
    },

    /** Delete one of my saved searches (404 when it is not mine). */
    async removeSaved(user: CurrentUser, id: string): Promise<void> {
      if (!(await repo.deleteSaved(db, user.id, id))) throw new AppError('NOT_FOUND');
    },

    async listRecent(user: CurrentUser, kind: SearchKind): Promise<RecentSearch[]> {
      return (await repo.listRecent(db, user.id, kind, RECENT_SEARCHES_MAX)).map(toRecent);
    },

    /** Record a search I ran as my most recent of its kind; keeps the last RECENT_SEARCHES_MAX (one transaction). */
    async recordRecent(user: CurrentUser, kind: SearchKind, raw: SearchFilters): Promise<RecentSearch> {
      const filters = normaliseFilters(kind, raw);
      return db.transaction(async (tx) => {
        await lockAccountCap(tx, `recent.${kind}`, user.id);
        return toRecent(await repo.upsertRecent(tx, { id: newId(), userId: user.id, kind, filters, filterKey: filterKeyOf(filters) }, RECENT_SEARCHES_MAX));
      });
    },

    /** Remove one of my recent searches (404 when it is not mine). */
    async removeRecent(user: CurrentUser, id: string): Promise<void> {
      if (!(await repo.deleteRecent(db, user.id, id))) throw new AppError('NOT_FOUND');
    },
  };
}

export type SearchesService = ReturnType<typeof createSearchesService>;
