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
