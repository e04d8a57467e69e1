-- The driver's trip, proofs and tracking (issue 7; spec §2 driver job link, track vehicle, /godsview).
-- Owned by modules/trips. Steps strictly in order (packages/shared schemas/trips.ts), each once.
create table trip_steps (
  id uuid primary key,
  load_id uuid not null references loads(id),
  driver_id uuid not null references drivers(id),
  step text not null,
  at timestamptz not null,
  lat double precision,
  lng double precision,
  accuracy_m real,
  geo_error text,
  created_at timestamptz not null default now(),
  unique (load_id, step)
);

-- Proof of pickup / drop: the file lives in the storage gateway under storage_key. A proof taken
-- farther than PROOF_GEOFENCE_KM from its stop is flagged (distance_km kept).
create table trip_proofs (
  id uuid primary key,
  load_id uuid not null references loads(id),
  driver_id uuid not null references drivers(id),
  stop text not null check (stop in ('pickup', 'drop')),
  mime text not null,
  size integer not null,
  storage_key text not null,
  at timestamptz not null,
  lat double precision,
  lng double precision,
  distance_km double precision,
  flagged boolean not null default false,
  created_at timestamptz not null default now(),
  unique (load_id, stop)
);

-- Tracking: every position (the trail) and the latest per vehicle. speed km/h, heading degrees.
create table vehicle_positions (
  vehicle_id uuid not null references vehicles(id),
  at timestamptz not null,
  lat double precision not null,
  lng double precision not null,
  speed real,
  heading real
);
-- a trail read is a bounded range on this index (newest first); one point per vehicle and instant
create unique index vehicle_positions_trail on vehicle_positions (vehicle_id, at desc);

create table vehicle_latest_positions (
  vehicle_id uuid primary key references vehicles(id),
  at timestamptz not null,
  lat double precision not null,
  lng double precision not null,
  speed real,
  heading real
);
