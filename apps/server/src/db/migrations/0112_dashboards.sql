-- Issue 20 "Dashboards" (spec §2; docs/dashboards.md): per-account aggregates kept by the
-- `dashboards` outbox handler, so a dashboard reads a bounded range of aggregate rows and never
-- the loads. Owned by modules/dashboards; written only by that handler and its backfill (which
-- replays the same events through it).
--
-- No foreign keys to loads or users, on purpose (as account_record_loads, migration 0110): the rows
-- are derived from events inside the drain's transaction.

-- The state of one load as the dashboards counted it. `last_seq` is the outbox seq of the last
-- lifecycle event of this load that was counted (posted, unposted, expired, cancelled, booked:
-- each published by a transition holding the load's row lock, so their seq order is their commit
-- order): one at or below it (a redelivery, a replay) changes nothing. Trip steps are guarded by
-- their set-once flags, offers by dashboard_offers. The other columns are what a later event needs to undo or attribute (the gauge, the
-- booking a cancellation takes back, the day the load was first posted for offers per load).
create table dashboard_loads (
  load_id uuid primary key,
  shipper_id uuid not null,
  carrier_id uuid,
  last_seq bigint not null default 0,
  -- counted in loads_open of the shipper now
  open boolean not null default false,
  -- the Riyadh day of its first load.posted (loads_posted counts the first post only)
  first_posted_on date,
  -- the booking counted (not own-vehicle): its Riyadh day, price, lane and distance
  booked_on date,
  booked_price_sar numeric(12, 2),
  origin_city_id integer,
  destination_city_id integer,
  distance_km numeric(10, 1),
  -- a booking taken back by a cancellation after booking
  booking_cancelled boolean not null default false,
  pickup_measured boolean not null default false,
  drop_measured boolean not null default false
);

-- The offers counted, each fact once (offer.created: made; offer.closed / rejected by the
-- shipper: lost). Offer events are guarded per offer, not by the load's last_seq: two carriers'
-- bids on one load commit in any order (the bid does not lock the load), so a seq guard could
-- drop the one whose seq is lower.
create table dashboard_offers (
  offer_id uuid primary key,
  made boolean not null default false,
  lost boolean not null default false
);

-- Per account and Riyadh day. Shipper side (the account's own loads): posted, booked to a
-- carrier, expired, the net change of the open gauge, offers received on the loads first posted
-- that day, spend, and its carriers' on-time arrivals. Carrier side (the account's offers and
-- bookings): offers made, won, lost, revenue and its km. A broker has both sides.
create table dashboard_daily (
  account_id uuid not null,
  day date not null,
  loads_posted integer not null default 0,
  loads_assigned integer not null default 0,
  loads_expired integer not null default 0,
  open_delta integer not null default 0,
  offers_received integer not null default 0,
  spend_sar numeric(16, 2) not null default 0,
  pickups_measured integer not null default 0,
  pickups_on_time integer not null default 0,
  deliveries_measured integer not null default 0,
  deliveries_on_time integer not null default 0,
  offers_made integer not null default 0,
  won integer not null default 0,
  lost integer not null default 0,
  revenue_sar numeric(16, 2) not null default 0,
  revenue_km numeric(14, 1) not null default 0,
  primary key (account_id, day)
);

-- The open gauge now: the account's loads on the board.
create table dashboard_open (
  account_id uuid primary key,
  loads_open integer not null default 0
);

-- Bookings per account, side, lane (origin city → destination city) and Riyadh month (the 1st):
-- "spend by lane" (shipper side) and popular routes / top lanes (carrier side) of This Month.
create table dashboard_lane_months (
  account_id uuid not null,
  side text not null check (side in ('shipper', 'carrier')),
  month date not null,
  origin_city_id integer not null,
  destination_city_id integer not null,
  loads integer not null default 0,
  value_sar numeric(16, 2) not null default 0,
  km numeric(14, 1) not null default 0,
  primary key (account_id, side, month, origin_city_id, destination_city_id)
);

-- The same per Riyadh day, read only for "This Week" (a week may cross a month).
create table dashboard_lane_days (
  account_id uuid not null,
  side text not null check (side in ('shipper', 'carrier')),
  day date not null,
  origin_city_id integer not null,
  destination_city_id integer not null,
  loads integer not null default 0,
  value_sar numeric(16, 2) not null default 0,
  km numeric(14, 1) not null default 0,
  primary key (account_id, side, day, origin_city_id, destination_city_id)
);

-- The same per Riyadh year (1 January), read for "This Year": one row per lane, so the year's top
-- lanes read at most one row per lane of the account, not one per lane and month.
create table dashboard_lane_years (
  account_id uuid not null,
  side text not null check (side in ('shipper', 'carrier')),
  year date not null,
  origin_city_id integer not null,
  destination_city_id integer not null,
  loads integer not null default 0,
  value_sar numeric(16, 2) not null default 0,
  km numeric(14, 1) not null default 0,
  primary key (account_id, side, year, origin_city_id, destination_city_id)
);
