import type { Db } from '../../db/client.ts';
import type { StorageGateway } from '../../gateways/storage/index.ts';
import type { SignedLinks } from '../../lib/signed-links.ts';
import type { loadLifecycle } from '../loads/loads.service.ts';

/** What the trips module asks of the loads module (its lifecycle; wired in container.ts). */
export type TripLoads = Pick<typeof loadLifecycle, 'trip' | 'event' | 'markDelivered' | 'markPaymentReceived'>;

/** What the container passes to createTripsService. */
export interface TripsServiceDeps {
  db: Db;
  links: SignedLinks;
  storage: StorageGateway;
  loads: TripLoads;
  /** PROOF_GEOFENCE_KM: a proof farther than this from its stop is flagged; TRIP_SESSION_HOURS: trip token life. */
  config: { PROOF_GEOFENCE_KM: number; TRIP_SESSION_HOURS: number };
  /** Whom the driver may call about a load (relations `tripContacts`: the contact rules); none when absent. */
  tripContacts?: (
    carrierId: string,
    loadId: string,
  ) => Promise<{ shipper: { name: string; phones: string[] } | null; carrier: { name: string; phone: string } | null }>;
  now?: () => Date;
}

/** What the trips use cases pick from: TripsServiceDeps with the clock filled in (the system clock by default). */
export type TripsDeps = Omit<TripsServiceDeps, 'now'> & { now: () => Date };
