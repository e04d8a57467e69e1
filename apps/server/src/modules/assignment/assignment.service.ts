import { FLEET_LIMITS, isEvent, plateFromStored, type Assignment, type LoadStatus } from '@masar/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import { actingUser } from '../auth/auth.types.ts';
import { requireApproved } from '../../lib/access.ts';
import { AppError, dbErrorCode } from '../../lib/errors.ts';
import type { EventHandler } from '../events/events.service.ts';
import type { fleetAssignment } from '../fleet/fleet.service.ts';
import type { loadLifecycle } from '../loads/loads.service.ts';

const plateOf = (v: { plateDigits: string; plateLetters: string }) => plateFromStored(v.plateDigits, v.plateLetters);

type TripLoad = NonNullable<Awaited<ReturnType<typeof loadLifecycle.trip>>>;

/**
 * What assignment asks of other modules (no table of its own; injected by the container): the
 * loads module's lifecycle of the shipment and the fleet module's vehicles, each inside the
 * caller's transaction.
 */
export interface AssignmentPorts {
  loadLifecycle: Pick<typeof loadLifecycle, 'trip' | 'transition'>;
  fleetAssignment: Pick<typeof fleetAssignment, 'describe' | 'take' | 'release'>;
}

/**
 * Assignment (issue 7; spec §2 `/delivery-tracking/assign-driver`, `/delivery-tracking/unassign-driver`,
 * §4 "a driver or vehicle can be unassigned", §5 "no vehicles available for assignment").
 * The awarded carrier of a booked shipment (carrier_id; the owner for an own-vehicle shipment,
 * the vendor for a vendor shipment) puts one of its vehicles on it; the vehicle brings its
 * linked driver and trailer. The shipment moves unassigned → assigned (lifecycle.ts) and the
 * vehicle becomes busy; unassigning (before a Bayan trip exists) frees it. A vehicle of 3.5 t
 * or more (the shipment then needs Bayan) must be WASL verified.
 */
export function createAssignmentService(deps: { db: Db } & AssignmentPorts) {
  const { db, loadLifecycle, fleetAssignment } = deps;

  async function view(via: DbOrTx, load: TripLoad): Promise<Assignment> {
    const { vehicle, driver, trailer } = await fleetAssignment.describe(via, {
      vehicleId: load.vehicle_id,
      driverId: load.driver_id,
      trailerId: load.trailer_id,
    });
    const running = load.status === 'assigned' || load.status === 'pending_bayan' || load.status === 'completed';
    return {
      loadId: load.id,
      status: load.status as LoadStatus,
      assignedAt: running && load.assigned_at ? new Date(load.assigned_at).toISOString() : null,
      deliveredAt: load.delivered_at ? new Date(load.delivered_at).toISOString() : null,
      bayanRequired: running && !!vehicle && Number(vehicle.weightKg) >= FLEET_LIMITS.waslMinWeightKg,
      vehicle:
        running && vehicle
          ? {
              id: vehicle.id,
              plate: plateOf(vehicle),
              plateType: vehicle.plateType,
              vehicleType: vehicle.vehicleType,
              weightKg: Number(vehicle.weightKg),
              waslStatus: vehicle.waslStatus,
            }
          : null,
      driver: running && driver ? { id: driver.id, name: `${driver.firstName} ${driver.lastName}`, phone: driver.phone } : null,
      trailer: running && trailer ? { id: trailer.id, trailerNumber: trailer.trailerNumber } : null,
    };
  }

  /** The booked shipment `loadId` if `user` is its awarded carrier, locked; NOT_FOUND / NOT_AWARDED_CARRIER otherwise. */
  async function awarded(tx: DbOrTx, user: CurrentUser, loadId: string): Promise<TripLoad> {
    const load = await loadLifecycle.trip(tx, loadId, true);
    if (!load) throw new AppError('NOT_FOUND');
    if (load.carrier_id !== user.id) throw new AppError(load.shipper_id === user.id ? 'NOT_AWARDED_CARRIER' : 'NOT_FOUND');
    return load;
  }

  return {
    /** GET /delivery-tracking/:loadId — for the shipper and the awarded carrier. */
    async get(user: CurrentUser, loadId: string): Promise<Assignment> {
      const load = await loadLifecycle.trip(db, loadId);
      if (!load || (load.shipper_id !== user.id && load.carrier_id !== user.id)) throw new AppError('NOT_FOUND');
      return view(db, load);
    },

    /**
     * Assign vehicle `vehicleId` (with its driver and trailer) to booked shipment `loadId`.
     * Errors: NOT_FOUND, NOT_AWARDED_CARRIER, INVALID_TRANSITION (not unassigned),
     * VEHICLE_NOT_AVAILABLE, VEHICLE_WASL_REQUIRED, VEHICLE_BUSY (the vehicle or driver already
     * runs another shipment). One transaction: status, vehicle, event.
     */
    async assign(user: CurrentUser, loadId: string, vehicleId: string): Promise<Assignment> {
      requireApproved(user);
      await db.transaction(async (tx) => {
        await awarded(tx, user, loadId);
        const { vehicle, driver, trailer } = await fleetAssignment.take(tx, user.id, vehicleId);
        const needsBayan = Number(vehicle.weightKg) >= FLEET_LIMITS.waslMinWeightKg;
        if (needsBayan && vehicle.waslStatus !== 'verified') throw new AppError('VEHICLE_WASL_REQUIRED');
        try {
          await loadLifecycle.transition(
            tx,
            loadId,
            'assign',
            user.id,
            { vehicleId: vehicle.id, driverId: driver.id, trailerId: trailer.id, plate: `${vehicle.plateDigits} ${vehicle.plateLetters}` },
            { vehicleId: vehicle.id, driverId: driver.id, trailerId: trailer.id, assignedAt: new Date() },
          );
        } catch (e) {
          // loads_vehicle_running / loads_driver_running: one running shipment per vehicle and driver
          if (dbErrorCode(e) === '23505') throw new AppError('VEHICLE_BUSY');
          throw e;
        }
      });
      return this.get(user, loadId);
    },

    /**
     * Complete a shipment that needs no Bayan (spec §4: completed only after the Bayan is closed —
     * a vehicle under 3.5 t has none): the awarded carrier or the owner, once the driver completed
     * the job (proof of drop). BAYAN_REQUIRED for a 3.5 t+ vehicle (close its Bayan instead);
     * NOT_DELIVERED before the proof of drop; INVALID_TRANSITION unless assigned.
     */
    async complete(user: CurrentUser, loadId: string): Promise<Assignment> {
      await db.transaction(async (tx) => {
        const load = await loadLifecycle.trip(tx, loadId, true);
        if (!load || (load.carrier_id !== user.id && load.shipper_id !== user.id)) throw new AppError('NOT_FOUND');
        if (load.status !== 'assigned') throw new AppError('INVALID_TRANSITION');
        const { vehicle } = await fleetAssignment.describe(tx, { vehicleId: load.vehicle_id, driverId: null, trailerId: null });
        if (!vehicle || Number(vehicle.weightKg) >= FLEET_LIMITS.waslMinWeightKg) throw new AppError('BAYAN_REQUIRED');
        if (!load.delivered_at) throw new AppError('NOT_DELIVERED');
        await loadLifecycle.transition(tx, loadId, 'complete', actingUser(user), { vehicleId: load.vehicle_id });
      });
      return this.get(user, loadId);
    },

    /** Take the vehicle and driver off (assigned or pending Bayan → unassigned); the vehicle is free again. */
    async unassign(user: CurrentUser, loadId: string): Promise<Assignment> {
      await db.transaction(async (tx) => {
        const load = await awarded(tx, user, loadId);
        await loadLifecycle.transition(tx, loadId, 'unassign', actingUser(user), { vehicleId: load.vehicle_id, driverId: load.driver_id });
        if (load.vehicle_id) await fleetAssignment.release(tx, load.vehicle_id);
      });
      return this.get(user, loadId);
    },
  };
}

export type AssignmentService = ReturnType<typeof createAssignmentService>;

/**
 * Frees the vehicle when its shipment ends (completed, Bayan cancelled, cancelled): an outbox
 * handler, so whichever module ends the shipment need not know about the fleet. Idempotent.
 */
export function assignmentReleaseHandler({ loadLifecycle, fleetAssignment }: AssignmentPorts): EventHandler {
  return {
    name: 'assignment-release',
    async handle(tx, e) {
      if (!isEvent(e, 'load.completed', 'load.bayan_closed', 'load.bayan_cancelled', 'load.cancelled')) return;
      const load = await loadLifecycle.trip(tx, e.data.loadId);
      if (load?.vehicle_id && (load.status === 'completed' || load.status === 'cancelled')) await fleetAssignment.release(tx, load.vehicle_id);
    },
  };
}
