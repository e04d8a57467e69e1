-- Durable jobs and event delivery (issue 6). pg-boss keeps its own tables in schema `pgboss`
-- (created by pg-boss on start); these are ours.

-- An event is delivered to every handler at least once; a handler's delivery is recorded so a
-- crash redelivers only what was not recorded. delivered_at marks an event done for all handlers
-- (the drain reads undelivered events through the partial index).
alter table outbox_events add column delivered_at timestamptz;
create index outbox_events_undelivered_idx on outbox_events (seq) where delivered_at is null;
create table outbox_deliveries (
  handler text not null,
  event_id uuid not null references outbox_events(id) on delete cascade,
  delivered_at timestamptz not null default now(),
  primary key (handler, event_id)
);

-- The audit timeline of a load (the first event handler): who did what, when.
create table load_timeline (
  event_id uuid primary key,
  load_id uuid not null,
  type text not null,
  actor_id uuid,
  data jsonb not null default '{}'::jsonb,
  at timestamptz not null
);
create index load_timeline_load_idx on load_timeline (load_id, at, event_id);

-- A CSV import is a job that resumes: the file is kept with its log and `next_row` is the
-- committed cursor (rows before it are stored, as successes or as failed rows).
alter table csv_logs add column source text;
alter table csv_logs add column next_row integer not null default 0;

-- The expiry job finds posted loads past their expiry without walking the board.
create index loads_posted_expiry on loads (expires_at) where status = 'posted';
