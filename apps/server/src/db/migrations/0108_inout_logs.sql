-- Truck in/out and shipment in/out logs (issue 19; spec §2, §7 /truckInOutLogs, /loadInOutLogs).
-- Each log reads the circle's cities (cities_earth_gist) and then only those cities' rows in the
-- window; the lists leaving the area (trucks by origin, loads by first pickup) use the boards'
-- indexes trucks_board_city and loads_board_city. What they lacked:

-- trucks arriving: posted trucks by destination city or region (arrays; GIN, bitmap-ORed)
create index trucks_inbound_city on trucks using gin (destination_city_ids) where status = 'posted';
create index trucks_inbound_region on trucks using gin (destination_region_ids) where status = 'posted';

-- trucks leaving, page by page: each city of the circle walked in the page's order
-- (available_from, id) and stopped after a page, so a hub's trucks are never sorted whole
create index trucks_inout_origin on trucks (origin_city_id, available_from, id)
  include (available_to) where status = 'posted';

-- loads delivering to the area: open marketplace loads by last drop city and delivery date, in
-- the page's order (drop_at, id)
create index loads_board_drop_at on loads (drop_city_id, drop_at, id)
  include (expires_at) where status = 'posted' and shipment_type = 1;

-- the load-to-truck ratio of the last 24 h: posts per origin / first pickup city by posting time
create index trucks_posted_city on trucks (origin_city_id, posted_at) where status <> 'deleted';
create index loads_posted_city on loads (pickup_city_id, posted_at)
  where shipment_type = 1 and posted_at is not null and deleted_at is null;
