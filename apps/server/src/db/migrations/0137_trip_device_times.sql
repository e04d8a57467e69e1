-- Issue 49: the driver's writes carry the device's time. A step or proof tapped without signal
-- reaches the server later: `at` stays the server's time of receipt, `recorded_at` is the time the
-- driver tapped (the device clock, accepted within bounds; null when the device sent none).
alter table trip_steps add column recorded_at timestamptz;
alter table trip_proofs add column recorded_at timestamptz;
-- The geofence on the step's own position (arrival at a stop, delivery), as proofs already have it.
alter table trip_steps add column distance_km double precision;
alter table trip_steps add column flagged boolean not null default false;
-- A position's `at` is the GPS fix (device time); `received_at` when the server got it
-- (a constant default for old rows: no table rewrite on PostgreSQL 11+).
alter table vehicle_positions add column received_at timestamptz default now();
