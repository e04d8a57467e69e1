-- The board at national scale (issue 10): a wide radius (≥ 500 km, WIDE_RADIUS_KM) sorted by
-- price, rate per km or pickup date walks one of these in the sort's order and keeps the loads
-- picked up in the circle's cities, stopping after the page (like loads_board_recent for newest
-- first), instead of reading and sorting every match (~700k rows at 1M loads). The same walk
-- serves an unfiltered board in those orders. Keys end with id: the keyset cursor's tie-break.
-- INCLUDE every filtered column so that the walk is index-only (same partial predicate as the
-- other board indexes, migration 0082).
create index if not exists loads_board_price on loads (price desc, id desc)
  include (expires_at, equipment_type, load_type, pickup_at, pickup_city_id, drop_city_id, posted_at, rate_per_km)
  where status = 'posted' and shipment_type = 1;
create index if not exists loads_board_rate on loads (rate_per_km desc, id desc)
  include (expires_at, equipment_type, load_type, pickup_at, pickup_city_id, drop_city_id, posted_at, price)
  where status = 'posted' and shipment_type = 1;
create index if not exists loads_board_pickup on loads (pickup_at, id)
  include (expires_at, equipment_type, load_type, pickup_city_id, drop_city_id, posted_at, price, rate_per_km)
  where status = 'posted' and shipment_type = 1;
