-- Bayan (issue 7; spec §1, §4, §5): the transport permit (trip) and waybill of a shipment, the
-- sender defaults of a user's waybills, and the state of the sandbox Bayan service.

-- One Bayan trip per shipment attempt, owned by modules/bayan. `pending` rows wait for the
-- retry job (the Bayan service did not answer): `request` keeps what will be sent.
create table bayan_trips (
  id uuid primary key,
  load_id uuid not null references loads(id),
  carrier_id uuid not null references users(id),
  shipper_id uuid not null references users(id),
  vehicle_id uuid not null references vehicles(id),
  driver_id uuid not null references drivers(id),
  status text not null check (status in ('pending', 'active', 'closed', 'cancelled')),
  trip_id text,
  waybill_id text,
  waybill_number text,
  request jsonb not null,
  attempts integer not null default 0,
  last_error text,
  cancel_reason text check (cancel_reason in ('recipient_refused', 'damage', 'theft')),
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (status = 'pending' or trip_id is not null)
);
-- one live Bayan per shipment (pending or active)
create unique index bayan_trips_live on bayan_trips (load_id) where status in ('pending', 'active');
-- the list of a user's trips, newest first (keyset on created_at, id)
create index bayan_trips_carrier on bayan_trips (carrier_id, created_at desc, id desc);
create index bayan_trips_shipper on bayan_trips (shipper_id, created_at desc, id desc);
create index bayan_trips_pending on bayan_trips (created_at) where status = 'pending';

-- Waybill config in the account (spec §2 account "waybill config"): sender defaults.
create table waybill_configs (
  user_id uuid primary key references users(id),
  sender_name text not null,
  sender_phone text not null,
  sender_address text not null,
  sender_city_id integer not null references cities(id),
  updated_at timestamptz not null default now()
);

-- The sandbox Bayan service's own state (BAYAN_GATEWAY=sandbox): trips and waybills it issued,
-- kept in the database so that a restart or a second instance sees the same trips.
create table bayan_sandbox_trips (
  trip_id bigint primary key,
  payload jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create sequence bayan_sandbox_ids start 100000001;
