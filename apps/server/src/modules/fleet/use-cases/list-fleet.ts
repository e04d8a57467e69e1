import type { FleetItem } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { FleetDeps } from '../deps.ts';
import * as repo from '../fleet.repository.ts';
import { driverViews, trailerViews, vehicleViews } from '../fleet.shared.ts';

export type ListFleetDeps = Pick<FleetDeps, 'db' | 'files'>;

/**
 * GET /fleet — one page of the fleet table, tabs All (0), Driver (1), Trailer (2), Vehicle (3),
 * newest first, each row with its item; `total` counts the tab, `counts` every kind (tab badges).
 */
export async function listFleet(deps: ListFleetDeps, user: CurrentUser, q: repo.FleetFilter & { limit: number; skip: number }) {
  const { db } = deps;
  const { ids, counts } = await repo.fleetPage(db, user.id, q, q.limit, q.skip);
  const of = (k: string) => ids.filter((i) => i.kind === k).map((i) => i.id);
  const [vs, ts, ds] = await Promise.all([
    repo.getVehiclesByIds(db, of('vehicle')).then((r) => vehicleViews(deps.files, db, r)),
    repo.getTrailersByIds(db, of('trailer')).then((r) => trailerViews(db, r)),
    repo.getDriversByIds(db, of('driver')).then((r) => driverViews(deps.files, db, user.id, r)),
  ]);
  const vm = new Map(vs.map((v) => [v.id, v]));
  const tm = new Map(ts.map((t) => [t.id, t]));
  const dm = new Map(ds.map((d) => [d.id, d]));
  const items: FleetItem[] = ids.map((i) => {
    if (i.kind === 'vehicle') {
      const v = vm.get(i.id)!;
      return { kind: 'vehicle', id: v.id, label: `${v.plateText} · ${v.make} ${v.model}`, state: v.state, createdAt: v.createdAt, vehicle: v };
    }
    if (i.kind === 'trailer') {
      const t = tm.get(i.id)!;
      return { kind: 'trailer', id: t.id, label: `${t.trailerNumber} · ${t.trailerType}`, state: t.state, createdAt: t.createdAt, trailer: t };
    }
    const d = dm.get(i.id)!;
    return { kind: 'driver', id: d.id, label: `${d.firstName} ${d.lastName}`, state: d.state, createdAt: d.createdAt, driver: d };
  });
  const total =
    q.tab === 1 ? counts.drivers : q.tab === 2 ? counts.trailers : q.tab === 3 ? counts.vehicles : counts.drivers + counts.trailers + counts.vehicles;
  return { items, total, counts: { all: counts.drivers + counts.trailers + counts.vehicles, ...counts } };
}
