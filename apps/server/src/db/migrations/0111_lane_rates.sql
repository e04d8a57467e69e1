-- Issue 20 "The lane rate index": one rate record per booked shipment, and daily lane aggregates
-- kept by the `lane-rates` outbox handler (docs/rates.md). Owned by modules/rates; written only by
-- that handler, its backfill and the demo seed (through the module).
--
-- rate_records: a booked shipment's price with its lane, equipment, load type, distance, weight,
-- Riyadh booking day and company (the shipper or broker account that booked it). Spot =
-- marketplace bookings (accepted offers, Book Now); contract = tenders, vendor and own-vehicle
-- assignments. A cancellation after booking sets cancelled_at and takes the record out of the
-- aggregates; an outlier is kept with outlier = true and never aggregated.
--
-- No foreign keys to loads or users, on purpose (as account_record_loads, migration 0110): the rows
-- are derived from events inside the drain's transaction.
create table rate_records (
  load_id uuid primary key,
  kind text not null check (kind in ('spot', 'contract')),
  source text not null check (source in ('offer', 'book_now', 'tender', 'vendor', 'own_vehicle')),
  company_id uuid not null,
  carrier_id uuid,
  booked_at timestamptz not null,
  -- the booking's calendar day in Asia/Riyadh (UTC+3 all year)
  booked_on date not null,
  origin_city_id integer not null,
  origin_region_id integer not null,
  destination_city_id integer not null,
  destination_region_id integer not null,
  equipment text not null,
  load_type text not null check (load_type in ('ftl', 'ltl')),
  distance_km numeric(8, 1) not null,
  weight_kg integer,
  price_sar numeric(12, 2) not null,
  -- price_sar / distance_km (SAR per km); null when the distance is 0
  per_km_sar numeric(10, 4),
  outlier boolean not null default false,
  cancelled_at timestamptz
);

-- The viewer's own average on a lane (and the dashboards' own history): one company's records.
create index rate_records_company_lane on rate_records (company_id, origin_city_id, destination_city_id, booked_on);

-- Daily lane aggregates at every geography level, per equipment ('*' = every equipment) and kind.
-- One row per (level, origin_key, destination_key, equipment, kind, day); records, sums and the sum
-- of squares count only records that are neither outliers nor cancelled.
--   level            origin_key        destination_key
--   city_city        origin city id    destination city id
--   region_city      origin region id  destination city id
--   city_region      origin city id    destination region id
--   region_region    origin region id  destination region id
--   national         0                 0
create table lane_rate_daily (
  level text not null check (level in ('city_city', 'region_city', 'city_region', 'region_region', 'national')),
  origin_key integer not null,
  destination_key integer not null,
  equipment text not null,
  kind text not null check (kind in ('spot', 'contract')),
  day date not null,
  records integer not null default 0,
  sum_sar numeric(16, 2) not null default 0,
  sum_sq_sar double precision not null default 0,
  sum_km numeric(14, 1) not null default 0,
  primary key (level, origin_key, destination_key, equipment, kind, day)
);

-- Extensions of the index itself (issue 20 part 1, docs/rates.md "Aggregates"): enough per day to
-- answer percentiles, companies and outlier counts without reading rate_records of a lane window.
--   outliers       records flagged as outliers that day (kept, never in records/sums)
--   sum_per_km, sum_sq_per_km   sums of the records' SAR/km (for the per-km standard deviation)
--   hist_sar       sparse log-bucket histogram of SAR per trip: {"<bucket>": count}, bucket
--                  b = floor(ln(price / 50) / ln(1.02)) clamped to 0…399 (2 % wide buckets)
--   hist_km        the same for SAR/km: b = floor(ln(per_km / 0.2) / ln(1.02)) clamped to 0…299
--   companies      records per company that day: {"<company uuid>": count}
alter table lane_rate_daily add column outliers integer not null default 0;
alter table lane_rate_daily add column sum_per_km double precision not null default 0;
alter table lane_rate_daily add column sum_sq_per_km double precision not null default 0;
alter table lane_rate_daily add column hist_sar jsonb not null default '{}';
alter table lane_rate_daily add column hist_km jsonb not null default '{}';
alter table lane_rate_daily add column companies jsonb not null default '{}';

-- The outlier rule's baseline (the lane's last 90 days, same equipment and kind) and the 13-month
-- history of the viewer's own bookings read through these, newest first and bounded.
create index rate_records_lane on rate_records (origin_city_id, destination_city_id, equipment, kind, booked_on desc);

-- Add two sparse count maps ({"key": n}): the sum per key, keys whose sum is 0 dropped. Used by the
-- aggregates' upsert (+1 / −1 of a record) and the bulk loads of the demo seed and the bench.
create function rate_counts_add(a jsonb, b jsonb) returns jsonb language sql immutable as $$
  select coalesce(jsonb_object_agg(k, n) filter (where n <> 0), '{}'::jsonb)
  from (select k, sum(v) as n
        from (select key as k, value::text::int as v from jsonb_each(a)
              union all select key, value::text::int from jsonb_each(b)) x
        group by k) y
$$;

-- Monthly rollups of lane_rate_daily (same columns; `day` = the first day of the month): a window
-- of 60 days or more reads its whole months here and only its partial months from the daily rows,
-- so a one-year window sums 12–13 monthly rows and at most 62 daily ones (docs/rates.md "Aggregates").
create table lane_rate_monthly (like lane_rate_daily including defaults including constraints);
alter table lane_rate_monthly add primary key (level, origin_key, destination_key, equipment, kind, day);
