-- Open marketplace loads in delivery order (issue 19 Numbers): the shipment-in log of a dense
-- circle (more than PER_PLACE_MAX places, e.g. ~900 within 100 km of some towns of Makkah and
-- Asir) walks the board's loads by (drop_at, id) from the window's start and keeps the circle's
-- drops (drop_city_id and expires_at from the INCLUDE: index-only), instead of one index descent
-- per place of loads_board_drop_at. The shipment-out log walks loads_board_pickup the same way.
create index loads_board_drop_time on loads (drop_at, id)
  include (drop_city_id, expires_at)
  where status = 'posted' and shipment_type = 1;
