-- The board's radius searches below 500 km as a per-place top-N (issue 24): each city of the
-- circle walks its own index in the page's order and stops after one page, so a search reads at
-- most cities × page rows instead of every open load of the circle (around Riyadh at 200 km:
-- every open load of 102 cities, then a sort). Pickup order already has its indexes
-- (loads_board_city, loads_board_equipment); these give the other orders theirs, the newest
-- (the default) also with the equipment first. INCLUDE every filtered column, as the other board
-- indexes do, so that each walk is index-only (same partial predicate, migration 0082).
create index if not exists loads_board_city_recent on loads (pickup_city_id, posted_at desc, id desc)
  include (expires_at, equipment_type, load_type, pickup_at, drop_city_id, price, rate_per_km)
  where status = 'posted' and shipment_type = 1;
create index if not exists loads_board_equipment_recent on loads (equipment_type, pickup_city_id, posted_at desc, id desc)
  include (expires_at, load_type, pickup_at, drop_city_id, price, rate_per_km)
  where status = 'posted' and shipment_type = 1;
create index if not exists loads_board_city_price on loads (pickup_city_id, price desc, id desc)
  include (expires_at, equipment_type, load_type, pickup_at, drop_city_id, posted_at, rate_per_km)
  where status = 'posted' and shipment_type = 1;
create index if not exists loads_board_city_rate on loads (pickup_city_id, rate_per_km desc, id desc)
  include (expires_at, equipment_type, load_type, pickup_at, drop_city_id, posted_at, price)
  where status = 'posted' and shipment_type = 1;
