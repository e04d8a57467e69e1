-- Detention from the trip's facts (issue 50): the post may cap the detention charged per stop;
-- the shipper accepts or disputes each stop's detention once (accepted → a ledger journal).
alter table loads add column detention_cap numeric(12,2) check (detention_cap is null or detention_cap >= 0);

create table detention_decisions (
  load_id uuid not null references loads (id),
  stop text not null check (stop in ('pickup', 'drop')),
  decision text not null check (decision in ('accepted', 'disputed')),
  amount_halalas bigint not null check (amount_halalas >= 0),
  billable_minutes integer not null check (billable_minutes >= 0),
  reason text,
  decided_by uuid not null,
  decided_at timestamptz not null default now(),
  -- one decision per stop: a second accept or dispute (or a race of both) is refused
  primary key (load_id, stop)
);
