-- Saved and recent searches (issue 19; spec §2 "saved and recent searches", §7 /recentLoads,
-- /recentTruckFilters; "duplicate search exists"). Owned by modules/searches.
--
-- A search is a kind (loads: GET /loads, trucks: GET /searchTrucks) and its filters, validated by
-- that endpoint's query schema and normalised (paging removed, dates in UTC, keys sorted);
-- filter_key is the SHA-256 of the normalised JSON. The unique (user_id, kind, filter_key) makes
-- "duplicate search exists" hold under a race (twenty parallel saves leave one row); the per-user
-- cap (50 per kind) is counted under the account's cap lock (lib/locks.ts).
create table saved_searches (
  id uuid primary key,
  user_id uuid not null references users(id),
  kind text not null check (kind in ('loads', 'trucks')),
  name text not null,
  filters jsonb not null,
  filter_key text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index saved_searches_user_filters on saved_searches (user_id, kind, filter_key);
-- the list (newest first) and the cap's count: one index range per user and kind
create index saved_searches_user_list on saved_searches (user_id, kind, created_at desc, id desc);

-- The last 10 searches a user ran, per kind: a repeat moves the row to the top (used_at), the
-- insert and the trim run in one transaction under the account's lock.
create table recent_searches (
  id uuid primary key,
  user_id uuid not null references users(id),
  kind text not null check (kind in ('loads', 'trucks')),
  filters jsonb not null,
  filter_key text not null,
  used_at timestamptz not null default now()
);
create unique index recent_searches_user_filters on recent_searches (user_id, kind, filter_key);
create index recent_searches_user_used on recent_searches (user_id, kind, used_at desc, id desc);
