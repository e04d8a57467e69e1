-- Truck in/out and the load-to-truck ratio bounded by what they show (issue 19 Numbers), not by
-- every posted truck of an area. Two side tables of `trucks`, owned by modules/trucks and written
-- only by its repositories in the transaction that changes the truck (insert, edit, lifecycle
-- transition: post, unpost, repost, expire, delete); never by a poller.

-- Trucks arriving: one row per destination of a posted truck that does not go "anywhere". `place`
-- is the destination city's id, or minus the destination region's id (one key, one index walk per
-- place of a circle). The truck's window is copied so a city's arrivals are read as an index range
-- (place, available_from, truck_id) in the page's order and stopped after the page; before this the
-- GIN indexes on trucks.destination_*_ids read every posted truck going to the area.
create table truck_destinations (
  truck_id uuid not null references trucks (id) on delete cascade,
  place integer not null,
  available_from timestamptz not null,
  available_to timestamptz not null,
  primary key (truck_id, place)
);
create index truck_destinations_place on truck_destinations (place, available_from, truck_id) include (available_to);

-- The ratio's trucks: posts per origin city and hour (posted_at truncated to the hour, UTC), of
-- trucks not deleted, counted by their current posted_at (a repost moves the truck to its new hour).
-- The last 24 h are the whole hours from the rollup plus the first, partial hour from
-- trucks_posted_city (0108): at most an hour of posts, instead of a day's.
create table trucks_posted_hourly (
  city_id integer not null,
  hour timestamptz not null,
  n integer not null,
  primary key (city_id, hour)
);

insert into truck_destinations (truck_id, place, available_from, available_to)
select t.id, p.place, t.available_from, t.available_to
  from trucks t
  cross join lateral (select unnest(t.destination_city_ids) as place
                      union select -unnest(t.destination_region_ids)) p
 where t.status = 'posted' and not t.anywhere;

insert into trucks_posted_hourly (city_id, hour, n)
select origin_city_id, date_bin('1 hour', posted_at, timestamptz '2000-01-01 00:00:00+00'), count(*)::int
  from trucks
 where status <> 'deleted' and posted_at is not null
 group by 1, 2;

-- the generic plans: statistics for the new tables at once
analyze truck_destinations;
analyze trucks_posted_hourly;
