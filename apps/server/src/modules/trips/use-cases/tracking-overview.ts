import { formatPlate, plateFromStored, type TrackOverview } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../trips.repository.ts';
import type { TripsDeps } from '../deps.ts';
import { remainingOf, toPosition } from '../trips.shared.ts';

export type TrackingOverviewDeps = Pick<TripsDeps, 'db' | 'now'>;

/** /godsview: the user's running shipments (shipper or carrier, ≤ 200) and vehicles (≤ 500) with their latest positions. */
export async function trackingOverview(deps: TrackingOverviewDeps, user: CurrentUser): Promise<TrackOverview> {
  const { db } = deps;
  const [ships, vehicles] = await Promise.all([repo.activeShipmentsOf(db, user.id, 200), repo.vehiclesOfOwner(db, user.id, 500)]);
  const vIds = [...new Set([...ships.flatMap((s) => (s.vehicle_id ? [s.vehicle_id] : [])), ...vehicles.map((v) => v.id)])];
  const [latest, steps] = await Promise.all([
    repo.latestOf(db, vIds),
    repo.stepsOf(
      db,
      ships.map((s) => s.id),
    ),
  ]);
  const pos = new Map(latest.map((p) => [p.vehicle_id, toPosition(p)]));
  const t = deps.now();
  const plateOf = (digits: string | null | undefined, letters: string | null | undefined) =>
    digits && letters ? formatPlate(plateFromStored(digits, letters)) : null;
  const shipments = ships.map((s) => {
    const mine = steps.filter((x) => x.load_id === s.id);
    const at = s.vehicle_id ? (pos.get(s.vehicle_id) ?? null) : null;
    const pickup = { lat: s.pickup_lat, lng: s.pickup_lng };
    const drop = { lat: s.drop_lat, lng: s.drop_lng };
    const { heading, eta } = remainingOf(at, pickup, drop, new Set(mine.map((x) => x.step)), !!s.delivered_at, t);
    return {
      loadId: s.id,
      referenceId: s.reference_id,
      status: s.status,
      pickup,
      drop,
      lane: { fromEn: s.pickup_city_en, fromAr: s.pickup_city_ar, toEn: s.drop_city_en, toAr: s.drop_city_ar },
      vehicleId: s.vehicle_id,
      plate: plateOf(s.plate_digits, s.plate_letters),
      driverName: s.driver_name,
      latest: at,
      lastStep: mine.at(-1)?.step ?? null,
      heading,
      eta,
    };
  });
  const onShipment = new Map(shipments.filter((s) => s.vehicleId).map((s) => [s.vehicleId!, s]));
  return {
    shipments,
    vehicles: vehicles.map((v) => {
      const s = onShipment.get(v.id);
      return {
        vehicleId: v.id,
        plate: plateOf(v.plate_digits, v.plate_letters) ?? v.plate,
        latest: pos.get(v.id) ?? null,
        loadId: s?.loadId ?? null,
        referenceId: s?.referenceId ?? null,
        driverName: s?.driverName ?? null,
      };
    }),
  };
}
