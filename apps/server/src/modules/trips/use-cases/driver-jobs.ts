import type { DriverJobs } from '@masar/shared';
import * as repo from '../trips.repository.ts';
import type { TripsDeps } from '../deps.ts';
import { activeDriver, jobsView } from '../trips.shared.ts';

export type DriverJobsDeps = Pick<TripsDeps, 'db' | 'tripContacts'>;

/** The driver's running shipments (assigned or pending Bayan) with stops, steps, proofs and the next step. */
export async function driverJobs(deps: DriverJobsDeps, driverId: string): Promise<DriverJobs> {
  const d = (await activeDriver(deps, driverId))!;
  return { driverName: `${d.first_name} ${d.last_name}`, items: await jobsView(deps, await repo.jobsOfDriver(deps.db, driverId), d) };
}
