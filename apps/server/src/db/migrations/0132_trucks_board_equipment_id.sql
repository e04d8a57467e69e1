-- The truck board's nearest-first search (issue 19 Numbers) walks each city of the circle in
-- (available_from, id) order up to the page. With the id in the key the equipment-first index
-- gives that order itself: the walk is index-only with no sort per city, and the statement's
-- generic plan takes this index for any values (before, the generic plan walked
-- trucks_inout_origin and read each truck's equipment from the heap), so the search runs its
-- generic plan, planned once per connection instead of on every miss. Other searches read it by
-- its leading columns as before.
drop index if exists trucks_board_equipment;
create index trucks_board_equipment on trucks (equipment_type, origin_city_id, available_from, id)
  include (available_to, load_type, capacity_kg, min_rate, anywhere) where status = 'posted';
