import { greatCircleKm } from '../../lib/geo.ts';

export interface LatLng {
  lat: number;
  lng: number;
}

/**
 * Routing gateway: road distance in km along the given points (in order). The default
 * estimates it as great-circle distance × a road factor; a real router (OSRM, Valhalla…)
 * can replace it behind this interface.
 */
export interface RoutingGateway {
  readonly name: string;
  distanceKm(points: LatLng[]): Promise<number>;
}

/** Great-circle × roadFactor (config ROAD_FACTOR, default 1.12), rounded to 0.1 km. */
export function createGreatCircleRouting(roadFactor: number): RoutingGateway {
  return {
    name: 'greatCircle',
    async distanceKm(points) {
      let km = 0;
      for (let i = 1; i < points.length; i++) km += greatCircleKm(points[i - 1].lat, points[i - 1].lng, points[i].lat, points[i].lng);
      return Math.round(km * roadFactor * 10) / 10;
    },
  };
}
