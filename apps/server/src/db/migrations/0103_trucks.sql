-- Truck posts (issue 19; spec §2 post trucks / search trucks, §3 truck post, §4). One row per
-- post: where and when a truck is free (origin city, optional pickup radius, availability
-- window), where it may go (anywhere, or destination cities and regions), its minimum rate (SAR
-- per trip or per km), equipment and free capacity, and optionally a vehicle and trailer of the
-- owner's fleet. `status` changes only through the trucks module's transition() (posted,
-- unposted, expired, deleted); a posted truck leaves the board when its window ends
-- (available_to): the expiry job reads the due ones through trucks_posted_expiry.
create sequence truck_reference_seq;

create table trucks (
  id uuid primary key,
  reference_id text not null unique,
  owner_id uuid not null references users(id),
  status text not null default 'unposted' check (status in ('posted', 'unposted', 'expired', 'deleted')),
  load_type text not null check (load_type in ('FTL', 'LTL')),
  equipment_type text not null references equipment_types(code),
  available_from timestamptz not null,
  available_to timestamptz not null check (available_to >= available_from),
  origin_city_id integer not null references cities(id),
  origin_radius_km integer,
  anywhere boolean not null default false,
  destination_city_ids integer[] not null default '{}',
  destination_region_ids integer[] not null default '{}',
  min_rate numeric(12,2) not null check (min_rate > 0),
  rate_basis text not null default 'trip' check (rate_basis in ('trip', 'km')),
  capacity_kg numeric(10,2) not null check (capacity_kg > 0),
  pallets integer,
  space_cm integer,
  vehicle_id uuid references vehicles(id),
  trailer_id uuid references trailers(id),
  comments text,
  posted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- The truck board (searchTrucks): the cities inside the radius first (cities_earth_gist), then one
-- range per city on (origin_city_id, available_from); equipment-filtered searches walk the
-- equipment-first twin. Both carry what the search filters on, so the window, capacity and
-- sorts are read from the index.
create index trucks_board_city on trucks (origin_city_id, available_from)
  include (available_to, equipment_type, load_type, capacity_kg, min_rate, anywhere) where status = 'posted';
create index trucks_board_equipment on trucks (equipment_type, origin_city_id, available_from)
  include (available_to, load_type, capacity_kg, min_rate, anywhere) where status = 'posted';
-- the expiry job: posted trucks whose window ended, oldest first
create index trucks_posted_expiry on trucks (available_to) where status = 'posted';
-- my trucks, newest first
create index trucks_owner on trucks (owner_id, created_at desc, id) where status <> 'deleted';
