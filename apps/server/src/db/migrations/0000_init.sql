-- Masar schema, migration 0000: extensions, reference data, accounts and sessions, loads, offers.
-- Runs on PGlite (PostgreSQL 18) and PostgreSQL 15: keep to PG15 features.
-- earthdistance needs a superuser on real PostgreSQL (STACK.md gotcha 5): provisioning creates it
-- first; IF NOT EXISTS makes this a no-op there and creates it on PGlite.
create extension if not exists cube;
create extension if not exists earthdistance;
create extension if not exists pg_trgm;

-- Reference data (../shared/data, loaded by the reference seed).
create table regions (
  id integer primary key,
  code text not null,
  name_en text not null,
  name_ar text not null,
  capital_city_id integer,
  lat double precision not null,
  lng double precision not null
);

create table cities (
  id integer primary key,
  region_id integer not null references regions(id),
  name_en text not null,
  name_ar text not null,
  lat double precision not null,
  lng double precision not null,
  -- ranking of the city search: larger/important cities first
  rank integer not null default 0
);
-- radius search finds the cities inside the circle first (DESIGN §6)
create index cities_earth_gist on cities using gist (ll_to_earth(lat, lng));
create index cities_name_en_trgm on cities using gin (lower(name_en) gin_trgm_ops);
create index cities_name_ar_trgm on cities using gin (name_ar gin_trgm_ops);

create table districts (
  id bigint primary key,
  city_id integer not null references cities(id),
  region_id integer not null,
  name_en text not null,
  name_ar text not null
);
create index districts_city on districts(city_id);

create table goods_types (
  code text primary key,
  name_en text not null,
  name_ar text not null,
  temperature_controlled boolean not null default false,
  hs_chapters integer[] not null default '{}',
  sort integer not null default 0
);

create table equipment_types (
  code text primary key,
  name_en text not null,
  name_ar text not null,
  class text not null,
  max_weight_kg integer,
  typical_length_cm integer,
  sort integer not null default 0
);

-- Accounts
create table users (
  id uuid primary key,
  account_type smallint not null check (account_type in (1, 2, 3)),
  first_name text not null,
  last_name text not null,
  company_name text not null,
  email text not null,
  phone text not null,
  password_hash text not null,
  status smallint not null default 1,
  is_first_time_approved boolean not null default false,
  is_first_time_login_after_approved boolean not null default false,
  language text not null default 'en',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_phone_unique on users(phone);
create unique index users_email_unique on users(lower(email));

create table subscriptions (
  id uuid primary key,
  user_id uuid not null references users(id) on delete cascade,
  plan_code text not null,
  plan_name text not null,
  active boolean not null default true,
  started_at timestamptz not null default now(),
  ends_at timestamptz
);
create index subscriptions_user on subscriptions(user_id) where active;

create table otps (
  id uuid primary key,
  phone text not null,
  purpose text not null,
  code_hash text not null,
  attempts integer not null default 0,
  expires_at timestamptz not null,
  consumed_at timestamptz,
  ip text,
  created_at timestamptz not null default now()
);
create index otps_phone_created on otps(phone, created_at desc);

-- Sessions: one row per refresh token; rotation creates a new row in the same family.
create table sessions (
  id uuid primary key,
  family_id uuid not null,
  user_id uuid references users(id) on delete cascade,
  refresh_hash text not null,
  device jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  rotated_at timestamptz,
  revoked_at timestamptz,
  logout_info jsonb
);
create unique index sessions_refresh_hash on sessions(refresh_hash);
create index sessions_family on sessions(family_id);
create index sessions_user on sessions(user_id);

-- Loads
create sequence load_reference_seq start 1000;
create table loads (
  id uuid primary key,
  reference_id text not null unique,
  shipper_id uuid not null references users(id),
  status text not null default 'posted' check (status in ('posted','unposted','assigned','completed','cancelled','expired')),
  load_type text not null check (load_type in ('FTL','LTL')),
  equipment_type text not null references equipment_types(code),
  shipment_type smallint not null default 1,
  price numeric(12,2) not null check (price > 0),
  currency text not null default 'SAR',
  distance_km numeric(10,1) not null,
  rate_per_km numeric(12,2) not null,
  total_weight_kg numeric(16,2) not null,
  comments text,
  -- denormalised first pickup and last drop: the board searches on them
  pickup_city_id integer not null references cities(id),
  pickup_lat double precision not null,
  pickup_lng double precision not null,
  pickup_at timestamptz not null,
  drop_city_id integer not null references cities(id),
  drop_lat double precision not null,
  drop_lng double precision not null,
  drop_at timestamptz not null,
  posted_at timestamptz,
  expires_at timestamptz,
  carrier_id uuid references users(id),
  booked_price numeric(12,2),
  booked_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
-- Board search: cities in the radius first, then a covering btree per city (DESIGN §6).
create index loads_board_equipment on loads (equipment_type, pickup_city_id, pickup_at) include (posted_at, price, id) where status = 'posted';
create index loads_board_city on loads (pickup_city_id, pickup_at) include (posted_at, equipment_type, id) where status = 'posted';
create index loads_board_recent on loads (posted_at desc) where status = 'posted';
create index loads_shipper on loads (shipper_id, status) where deleted_at is null;
create index loads_carrier on loads (carrier_id, status) where carrier_id is not null;

create table load_stops (
  id uuid primary key,
  load_id uuid not null references loads(id) on delete cascade,
  idx smallint not null,
  stop_type smallint not null check (stop_type in (1, 2)),
  city_id integer not null references cities(id),
  district_id bigint,
  address text,
  lat double precision not null,
  lng double precision not null,
  date timestamptz not null,
  unique (load_id, idx)
);

create table cargo_lines (
  id uuid primary key,
  load_id uuid not null references loads(id) on delete cascade,
  idx smallint not null,
  goods_type text not null references goods_types(code),
  length_cm numeric(10,2) not null,
  width_cm numeric(10,2) not null,
  height_cm numeric(10,2) not null,
  quantity integer not null,
  weight_per_item_kg numeric(14,2) not null,
  stackable boolean not null default false,
  adr boolean not null default false,
  conditions text,
  unique (load_id, idx)
);

-- Offers (bids) and their counter-offer history
create table offers (
  id uuid primary key,
  load_id uuid not null references loads(id) on delete cascade,
  carrier_id uuid not null references users(id),
  shipper_id uuid not null references users(id),
  price numeric(12,2) not null,
  original_price numeric(12,2) not null,
  last_offer_by text not null check (last_offer_by in ('carrier','shipper')),
  status text not null default 'pending' check (status in ('pending','accepted','rejected','closed','withdrawn')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- exactly one accepted offer per load, whatever the race
create unique index offers_one_accepted on offers(load_id) where status = 'accepted';
-- one open offer per carrier per load
create unique index offers_one_open on offers(load_id, carrier_id) where status = 'pending';
create index offers_load on offers(load_id, status);
create index offers_carrier on offers(carrier_id, updated_at desc);
create index offers_shipper on offers(shipper_id, updated_at desc);

create table offer_events (
  id uuid primary key,
  offer_id uuid not null references offers(id) on delete cascade,
  by_party text not null,
  action text not null,
  price numeric(12,2),
  created_at timestamptz not null default now()
);
create index offer_events_offer on offer_events(offer_id, created_at);
