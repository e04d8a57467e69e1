-- Board search indexes, version 2 (issue 2, DESIGN §6). The search finds the cities inside the
-- radius first (cities_earth_gist), then walks one covering btree per city. Every column the
-- search filters or sorts on is in the index so that the walk is index-only: expires_at (open
-- loads only), load_type, drop_city_id (drop filters), price and rate_per_km (sorts).
drop index if exists loads_board_equipment;
drop index if exists loads_board_city;
create index loads_board_equipment on loads (equipment_type, pickup_city_id, pickup_at)
  include (expires_at, posted_at, load_type, drop_city_id, price, rate_per_km, id) where status = 'posted';
create index loads_board_city on loads (pickup_city_id, pickup_at)
  include (expires_at, posted_at, equipment_type, load_type, drop_city_id, price, rate_per_km, id) where status = 'posted';
-- searches by drop city only (backhauls)
create index loads_board_drop on loads (drop_city_id, pickup_at)
  include (expires_at, posted_at, equipment_type, load_type, price, rate_per_km, id) where status = 'posted';
-- "loads where I have an open offer" (my-loads offers tab)
create index offers_carrier_pending on offers (carrier_id, load_id) where status = 'pending';
