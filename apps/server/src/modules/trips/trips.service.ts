import type { GeoError, PositionInput, ProofStop } from '@masar/shared';
import type { CurrentUser } from '../auth/auth.types.ts';
import type { TripsDeps, TripsServiceDeps } from './deps.ts';
import { openSession } from './use-cases/open-session.ts';
import { driverOfSession } from './use-cases/driver-of-session.ts';
import { driverJobs } from './use-cases/driver-jobs.ts';
import { recordStep, type StepInput } from './use-cases/record-step.ts';
import { uploadProof } from './use-cases/upload-proof.ts';
import { openProof } from './use-cases/open-proof.ts';
import { ingestPositions, type PositionSender } from './use-cases/ingest-positions.ts';
import { vehicleTrack } from './use-cases/vehicle-track.ts';
import { loadTracking } from './use-cases/load-tracking.ts';
import { trackingOverview } from './use-cases/tracking-overview.ts';
import { markPaymentReceived } from './use-cases/mark-payment-received.ts';
import { daysToPay } from './use-cases/days-to-pay.ts';

export { proofUrl, sniffProofMime } from './trips.shared.ts';
export type { TripLoads, TripsDeps, TripsServiceDeps } from './deps.ts';
export type { PositionSender } from './use-cases/ingest-positions.ts';

/**
 * The driver's trip, proofs, tracking and payment follow-through (issue 7; spec §2 driver job
 * link, track vehicle, /godsview; §6 driver identified by phone + licence number); the rules of
 * the steps are in trips.shared.ts, one use case per file in use-cases/. This factory fills in
 * the clock (the system clock unless the container or a test gives one) and wires them.
 */
export function createTripsService(input: TripsServiceDeps) {
  const deps: TripsDeps = { ...input, now: input.now ?? (() => new Date()) };
  return {
    openSession: (b: { token: string; phone: string; licenceNumber: string }) => openSession(deps, b),
    driverOf: (token: string | undefined) => driverOfSession(deps, token),
    jobs: (driverId: string) => driverJobs(deps, driverId),
    recordStep: (driverId: string, b: StepInput) => recordStep(deps, driverId, b),
    uploadProof: (
      driverId: string,
      f: { loadId: string; stop: ProofStop; lat?: number; lng?: number; geoError?: GeoError; recordedAt?: string },
      data: Buffer,
    ) => uploadProof(deps, driverId, f, data),
    openProof: (viewer: { userId?: string; driverId?: string }, proofId: string) => openProof(deps, viewer, proofId),

    // ---------- tracking ----------
    ingest: (sender: PositionSender, b: { imei?: string; positions: PositionInput[] }) => ingestPositions(deps, sender, b),
    vehicleTrack: (user: CurrentUser, vehicleId: string, hours: number) => vehicleTrack(deps, user, vehicleId, hours),
    loadTracking: (user: CurrentUser, loadId: string) => loadTracking(deps, user, loadId),
    overview: (user: CurrentUser) => trackingOverview(deps, user),

    // ---------- payment follow-through ----------
    paymentReceived: (user: CurrentUser, loadId: string) => markPaymentReceived(deps, user, loadId),
    daysToPay: (shipperId: string) => daysToPay(deps, shipperId),
  };
}

export type TripsService = ReturnType<typeof createTripsService>;
