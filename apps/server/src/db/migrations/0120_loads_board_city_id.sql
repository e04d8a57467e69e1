-- Loads per pickup city in (pickup_at, id) order (issue 19 Numbers): the shipment in/out page walks
-- each city of a circle in the page's order (pickup_at, id) and stops after a page; without the id
-- in the key a city's window was read in full and sorted before the page could be cut. The board's
-- search reads the same index by (pickup_city_id, pickup_at) as before.
drop index if exists loads_board_city;
create index loads_board_city on loads (pickup_city_id, pickup_at, id)
  include (expires_at, posted_at, equipment_type, load_type, drop_city_id, price, rate_per_km)
  where status = 'posted' and shipment_type = 1;

-- Backhauls without an equipment filter: each city of the circle in the backhaul's order (rate per
-- km, highest first, then id), the pickup window and expiry filtered from the INCLUDEd columns;
-- the walk stops after a page instead of reading and sorting the city's whole week.
create index loads_backhaul_city on loads (pickup_city_id, rate_per_km desc, id)
  include (pickup_at, expires_at, equipment_type)
  where status = 'posted' and shipment_type = 1;
