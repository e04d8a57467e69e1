-- Tendering (issue 19 "Tendering"; spec §3 offer/bid, §4 bidding). A shipper or broker offers
-- one of its open loads to chosen carriers with a deadline and an optional target rate, all at
-- once (broadcast) or one at a time for step_minutes each (waterfall, in `position` order).
-- `tenders.status` and `tender_invites.status` change only through the tenders module's
-- lifecycle (lifecycle.ts: conditional update + typed event in one transaction). Awarding books
-- the load through the loads lifecycle.
create table tenders (
  id uuid primary key,
  load_id uuid not null references loads(id),
  owner_id uuid not null references users(id),
  mode text not null check (mode in ('broadcast', 'waterfall')),
  deadline timestamptz not null,
  target_rate numeric(12,2) check (target_rate > 0),
  step_minutes integer not null default 30 check (step_minutes between 1 and 1440),
  post_on_close boolean not null default false,
  status text not null default 'open' check (status in ('open', 'awarded', 'closed', 'cancelled')),
  awarded_invite_id uuid,
  closed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- at most one open tender per load (a second POST /tenders on it: TENDER_EXISTS)
create unique index tenders_one_open on tenders (load_id) where status = 'open';
-- the sent tab: my tenders, newest first (keyset on created_at, id)
create index tenders_owner on tenders (owner_id, created_at desc, id);
-- the tender job: open tenders past their deadline, oldest first (reads only what is due)
create index tenders_open_deadline on tenders (deadline) where status = 'open';

create table tender_invites (
  id uuid primary key,
  tender_id uuid not null references tenders(id),
  carrier_id uuid not null references users(id),
  position integer not null check (position >= 1),
  status text not null check (status in ('waiting', 'invited', 'accepted', 'countered', 'declined', 'expired', 'awarded', 'closed')),
  amount numeric(12,2) check (amount > 0),
  invited_at timestamptz,
  answered_at timestamptz,
  window_ends_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tender_id, carrier_id),
  unique (tender_id, position)
);
-- at most one awarded invite per tender (backs the tender row lock of the award)
create unique index tender_invites_one_awarded on tender_invites (tender_id) where status = 'awarded';
-- the received tab: invites to me once invited, newest first (keyset on invited_at, id)
create index tender_invites_carrier on tender_invites (carrier_id, invited_at desc, id) where invited_at is not null;
-- the tender job: waterfall turns that ended unanswered, oldest first
create index tender_invites_window_due on tender_invites (window_ends_at) where status = 'invited' and window_ends_at is not null;
