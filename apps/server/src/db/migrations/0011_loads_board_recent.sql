-- The board without a pickup city (home page "latest active loads", drop-only searches) walks
-- loads by posted_at: cover the filter and sort columns so that page and total are index-only.
drop index if exists loads_board_recent;
create index loads_board_recent on loads (posted_at desc)
  include (expires_at, equipment_type, load_type, pickup_at, pickup_city_id, drop_city_id, price, rate_per_km, id) where status = 'posted';
