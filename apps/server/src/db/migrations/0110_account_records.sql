-- Issue 19 "Fact-based record": each account's record counted from shipment events
-- (docs/account-record.md). Owned by modules/records; written only by its outbox handler
-- (`account-record`) and its backfill, which replays the same events.
--
-- account_record_loads: the facts of one shipment, each set at most once (`… is null` guards),
-- so a redelivered or replayed event changes nothing. The counters of account_records move in
-- the same transaction as the fact they count, and only when that fact was newly set.
--
-- No foreign keys to loads or users, on purpose: the rows are derived from events published in
-- the transaction that wrote the load, and a foreign key's check would take FOR KEY SHARE on the
-- loads row inside the drain's transaction — which conflicts with the lifecycle's FOR UPDATE, so
-- shipment requests would queue behind an event batch (and the reverse).
create table account_record_loads (
  load_id uuid primary key,
  shipper_id uuid not null,
  carrier_id uuid,
  -- trip step `at_pickup` (the truck arrived at the pickup) and whether it was by the window's end
  pickup_arrived_at timestamptz,
  pickup_on_time boolean,
  -- trip step `at_drop` (the truck arrived at the drop) and whether it was by the window's end
  drop_arrived_at timestamptz,
  drop_on_time boolean,
  -- load.completed / load.bayan_closed
  completed_at timestamptz,
  -- a cancellation after booking, and by which party ('shipper', 'carrier'; null: neither party's own account acted)
  cancelled_at timestamptz,
  cancelled_by text check (cancelled_by in ('shipper', 'carrier')),
  updated_at timestamptz not null default now()
);

-- One row per account that has any counted fact; read by primary key (truck search, offers, profile).
create table account_records (
  account_id uuid primary key,
  carrier_completed integer not null default 0,
  pickups_measured integer not null default 0,
  pickups_on_time integer not null default 0,
  deliveries_measured integer not null default 0,
  deliveries_on_time integer not null default 0,
  carrier_cancellations integer not null default 0,
  shipper_completed integer not null default 0,
  shipper_cancellations integer not null default 0,
  updated_at timestamptz not null default now(),
  check (carrier_completed >= 0 and pickups_on_time between 0 and pickups_measured
    and deliveries_on_time between 0 and deliveries_measured and carrier_cancellations >= 0
    and shipper_completed >= 0 and shipper_cancellations >= 0)
);

-- the WASL share of a fleet is counted on read over the owner's vehicles: (owner_id, wasl_status)
-- makes it an index-only range of one owner (vehicles_owner_created covers the owner alone)
create index vehicles_owner_wasl on vehicles (owner_id, wasl_status) where state <> 'deleted';
