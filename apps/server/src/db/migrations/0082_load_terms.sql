-- The complete post form, vendor / own-vehicle shipments, bookmarks (issue 7; spec §2 post
-- shipment, §3 shipment and address, §5).

-- Shipment terms (all optional; money in SAR numeric(12,2), hours as 'HH:MM' text)
alter table loads add column pickup_latest_at timestamptz;
alter table loads add column pickup_hours_from text;
alter table loads add column pickup_hours_to text;
alter table loads add column drop_hours_from text;
alter table loads add column drop_hours_to text;
alter table loads add column payment_method text;
alter table loads add column paid_by text;
alter table loads add column payment_terms_days smallint;
alter table loads add column detention_free_hours smallint;
alter table loads add column detention_rate numeric(12, 2);
alter table loads add column delivery_type text;
alter table loads add column delivery_to text;
alter table loads add column tradable boolean not null default false;
-- the structured (national) address of a stop: buildingNumber, streetName, district, region,
-- zipCode, additionalNumber, unitNumber, businessName
alter table load_stops add column address_details jsonb;

-- The vendors a vendor shipment (shipment_type 2) is offered to, with the account each vendor
-- resolved to when it was chosen (a registered carrier or broker with the vendor's phone or
-- e-mail). Only these accounts see and bid on it.
create table load_vendors (
  load_id uuid not null references loads(id) on delete cascade,
  vendor_id uuid not null,
  user_id uuid not null references users(id),
  primary key (load_id, vendor_id)
);
-- "shipments from my customers" and the visibility check (user_id, load_id)
create index load_vendors_user on load_vendors (user_id, load_id);

-- Bookmarks (spec §2 load board "bookmarks", my shipments tab)
create table load_bookmarks (
  user_id uuid not null references users(id),
  load_id uuid not null references loads(id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, load_id)
);
create index load_bookmarks_recent on load_bookmarks (user_id, created_at desc, load_id);

-- The public board shows marketplace shipments only: its partial indexes (0010, 0011) gain
-- `shipment_type = 1`, so vendor and own-vehicle loads are neither read nor counted by a search.
drop index if exists loads_board_equipment;
drop index if exists loads_board_city;
drop index if exists loads_board_drop;
drop index if exists loads_board_recent;
create index loads_board_equipment on loads (equipment_type, pickup_city_id, pickup_at)
  include (expires_at, posted_at, load_type, drop_city_id, price, rate_per_km, id) where status = 'posted' and shipment_type = 1;
create index loads_board_city on loads (pickup_city_id, pickup_at)
  include (expires_at, posted_at, equipment_type, load_type, drop_city_id, price, rate_per_km, id) where status = 'posted' and shipment_type = 1;
create index loads_board_drop on loads (drop_city_id, pickup_at)
  include (expires_at, posted_at, equipment_type, load_type, price, rate_per_km, id) where status = 'posted' and shipment_type = 1;
create index loads_board_recent on loads (posted_at desc)
  include (expires_at, equipment_type, load_type, pickup_at, pickup_city_id, drop_city_id, price, rate_per_km, id) where status = 'posted' and shipment_type = 1;
-- the capped total of a search without filters counts open marketplace loads index-only (before:
-- loads_posted_expiry, which cannot tell the shipment type without a heap fetch, so the planner
-- fell back to a sequential scan)
create index loads_board_open on loads (expires_at) where status = 'posted' and shipment_type = 1;

-- The cancelled tab: a cancelled load carries deleted_at, so loads_owner_tab / loads_carrier_tab
-- (where deleted_at is null) do not hold it.
create index loads_owner_cancelled on loads (shipper_id, (coalesce(posted_at, created_at)) desc, id desc) where status = 'cancelled';
create index loads_carrier_cancelled on loads (carrier_id, (coalesce(posted_at, created_at)) desc, id desc) where status = 'cancelled' and carrier_id is not null;
