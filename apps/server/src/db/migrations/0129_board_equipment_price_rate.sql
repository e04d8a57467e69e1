-- The last unbounded board read (issue 24): a search below 500 km with an equipment type, sorted
-- by price or by rate per km, read every open load of that equipment in the circle and sorted
-- them (the `perCity` path), because no index led with the equipment in those orders. With these
-- two, that search is a per-place top-N like every other (each place walks its own index in the
-- page's order and stops after one page), so no board statement reads rows in proportion to the
-- circle's open loads. Same partial predicate and covering columns as migration 0122.
create index if not exists loads_board_equipment_price on loads (equipment_type, pickup_city_id, price desc, id desc)
  include (expires_at, load_type, pickup_at, drop_city_id, posted_at, rate_per_km)
  where status = 'posted' and shipment_type = 1;
create index if not exists loads_board_equipment_rate on loads (equipment_type, pickup_city_id, rate_per_km desc, id desc)
  include (expires_at, load_type, pickup_at, drop_city_id, posted_at, price)
  where status = 'posted' and shipment_type = 1;
