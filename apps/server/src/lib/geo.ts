import { sql, type SQL } from 'drizzle-orm';

/** Mean Earth radius used by PostgreSQL's earthdistance (earth() = 6378168 m). */
export const EARTH_RADIUS_KM = 6378.168;

/** Great-circle distance in km between two [lat, lng] points (haversine). */
export function greatCircleKm(aLat: number, aLng: number, bLat: number, bLng: number): number {
  const rad = Math.PI / 180;
  const dLat = (bLat - aLat) * rad;
  const dLng = (bLng - aLng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * SQL: great-circle metres from city `o` to city `c` (aliases of `cities` in the caller's query):
 * the haversine formula on the sphere of earth() (6378168 m), the same circle as earth_distance
 * without two ll_to_earth SQL-function calls per candidate city, which cost more than the rest of
 * the board search on PostgreSQL 15 (issue 10).
 */
export const GREAT_CIRCLE_M = sql.raw(`12756336 * asin(least(1, sqrt(
  power(sin(radians(c.lat - o.lat) / 2), 2) + cos(radians(o.lat)) * cos(radians(c.lat)) * power(sin(radians(c.lng - o.lng) / 2), 2))))`);

/**
 * SQL: the cities within `radiusKm` of city `cityId` (a number, or an SQL expression such as a
 * column of the outer query) as rows `(id, dist_m)`, the great-circle distance in metres. Read
 * through the cities GiST on ll_to_earth(lat, lng): earth_box is the index-backed bounding cube,
 * then the exact test. Without a radius: that city only (distance 0). The circle of the load
 * board (DESIGN §6), the truck board and the matching of trucks and loads (issue 19).
 */
export function citiesAround(cityId: number | SQL, radiusKm: number | undefined | null): SQL {
  if (!radiusKm) return sql`(select o.id, 0::float8 as dist_m from cities o where o.id = ${cityId})`;
  const r = radiusKm * 1000;
  return sql`(select c.id, d.m as dist_m
      from cities o
      join cities c on earth_box(ll_to_earth(o.lat, o.lng), ${r}::float8) @> ll_to_earth(c.lat, c.lng)
      cross join lateral (select ${GREAT_CIRCLE_M} as m) d
      where o.id = ${cityId} and d.m <= ${r}::float8)`;
}
