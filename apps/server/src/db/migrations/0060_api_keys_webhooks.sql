-- An open API (issue 11): API keys for integrators and signed webhooks fed by the outbox.

-- A key is shown once; only its SHA-256 is kept (keys are 32 random bytes, so a fast hash is
-- enough). `prefix` is its public start, to recognise it in lists.
create table api_keys (
  id uuid primary key,
  owner_id uuid not null references users (id),
  name text not null,
  prefix text not null,
  key_hash text not null unique,
  scopes text[] not null,
  rate_per_minute integer not null default 120,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  use_count bigint not null default 0,
  revoked_at timestamptz
);
create index api_keys_owner_idx on api_keys (owner_id, created_at desc);

create table webhook_endpoints (
  id uuid primary key,
  owner_id uuid not null references users (id),
  url text not null,
  description text,
  events text[] not null,
  -- the HMAC signing secret (whsec_…): needed in clear to sign, shown to the owner only
  secret text not null,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index webhook_endpoints_owner_idx on webhook_endpoints (owner_id) where deleted_at is null;

-- One row per (endpoint, event): made in the outbox drain's transaction (so at most once per
-- event), sent by the delivery ticker head-of-line per endpoint (so in publish order), retried
-- with backoff for a day. `seq` orders an endpoint's deliveries.
create table webhook_deliveries (
  id uuid primary key,
  seq bigserial not null,
  endpoint_id uuid not null references webhook_endpoints (id),
  event_id uuid not null,
  event_type text not null,
  payload jsonb not null,
  status text not null default 'pending',
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  claimed_until timestamptz,
  last_status_code integer,
  last_response text,
  last_error text,
  created_at timestamptz not null default now(),
  delivered_at timestamptz,
  unique (endpoint_id, event_id)
);
create index webhook_deliveries_pending_idx on webhook_deliveries (endpoint_id, seq) where status = 'pending';
create index webhook_deliveries_log_idx on webhook_deliveries (endpoint_id, created_at desc);

-- Every attempt, for the delivery log.
create table webhook_attempts (
  id uuid primary key,
  delivery_id uuid not null references webhook_deliveries (id),
  at timestamptz not null default now(),
  status_code integer,
  duration_ms integer not null,
  response text,
  error text
);
create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, at);
