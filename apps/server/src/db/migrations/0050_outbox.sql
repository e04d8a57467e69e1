-- Events outbox (issue 6, DESIGN §3): a service writes its event here in the transaction that
-- made the change; a job delivers rows to handlers at least once. `seq` orders delivery.
create table outbox_events (
  id uuid primary key,
  seq bigserial not null unique,
  type text not null,
  aggregate_type text not null,
  aggregate_id uuid not null,
  actor_id uuid,
  data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create index outbox_events_aggregate_idx on outbox_events (aggregate_type, aggregate_id, seq);
