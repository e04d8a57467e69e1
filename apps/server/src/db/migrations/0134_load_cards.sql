-- The board card of a load (issue 45; apps/server/src/db/load-cards.ts): its stops with the city
-- names, its cargo lines (the JSON text the API's Load is built from; json, not jsonb, keeps that
-- text and its key order) and its pending offers, written with the load by every write that
-- changes them, so that a board page reads 20 cards by primary key instead of three correlated
-- subqueries per load. Backfilled here for the loads that exist (the same expressions as
-- load-cards.ts at the time of this migration).
create table load_cards (
  load_id uuid primary key references loads (id) on delete cascade,
  stops json not null,
  cargo json not null,
  offers_count int not null default 0
);

insert into load_cards (load_id, stops, cargo, offers_count)
select l.id,
  (select coalesce(json_agg(json_build_object('id', s.id, 'index', s.idx, 'stopType', s.stop_type, 'cityId', s.city_id,
      'cityNameEn', c.name_en, 'cityNameAr', c.name_ar, 'districtId', s.district_id, 'lat', s.lat, 'lng', s.lng,
      'date', s.date, 'address', s.address, 'addressDetails', s.address_details) order by s.idx), '[]'::json)
     from load_stops s join cities c on c.id = s.city_id where s.load_id = l.id),
  (select coalesce(json_agg(json_build_object('id', g.id, 'goodsType', g.goods_type, 'lengthCm', g.length_cm, 'widthCm', g.width_cm,
      'heightCm', g.height_cm, 'quantity', g.quantity, 'weightPerItemKg', g.weight_per_item_kg, 'stackable', g.stackable,
      'adr', g.adr, 'conditions', g.conditions) order by g.idx), '[]'::json)
     from cargo_lines g where g.load_id = l.id),
  (select count(*)::int from offers o where o.load_id = l.id and o.status = 'pending')
from loads l;
