import { FLEET_LIMITS, type BayanTripView, type CreateBayanBody } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import { BayanRejectedError, elmPlate, type BayanTrip, type BayanTripInput } from '../../../gateways/bayan/bayan.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../bayan.repository.ts';
import { bayanIdempotencyKey, gatewayError, recordCreated, riyadhDate, staleSecondsOf, view, withTimeout } from '../bayan.shared.ts';
import type { BayanDeps } from '../deps.ts';

export type CreateBayanTripDeps = Pick<BayanDeps, 'db' | 'gateway' | 'loads' | 'enqueue' | 'timeoutMs' | 'staleSeconds' | 'log'>;

/** Bayan's payment method ids we send: bank transfer (2) until the post form carries the shipment's method (docs/bayan-wasl.md). */
const DEFAULT_PAYMENT_METHOD = 2 as const;

/** Build what Bayan is sent, after every check (spec §5; docs/bayan-wasl.md for each field's source). */
async function prepare(deps: Pick<BayanDeps, 'loads'>, tx: DbOrTx, user: CurrentUser, body: CreateBayanBody) {
  const load = await deps.loads.trip(tx, body.loadId, true);
  if (!load || (load.carrier_id !== user.id && load.shipper_id !== user.id)) throw new AppError('NOT_FOUND');
  if (load.carrier_id !== user.id) throw new AppError('FORBIDDEN');
  if (load.status === 'pending_bayan') throw new AppError('BAYAN_EXISTS');
  if (load.status !== 'assigned') throw new AppError(load.status === 'unassigned' ? 'BAYAN_NOT_ASSIGNED' : 'INVALID_TRANSITION');
  if (!load.vehicle_id || !load.driver_id) throw new AppError('BAYAN_NOT_ASSIGNED');
  const live = await repo.tripOfLoad(tx, load.id);
  if (live && (live.status === 'pending' || live.status === 'active')) throw new AppError('BAYAN_EXISTS');
  // the plate and driver sent are the ones assigned on the shipment, from the awarded carrier's fleet
  if ((body.vehicleId && body.vehicleId !== load.vehicle_id) || (body.driverId && body.driverId !== load.driver_id))
    throw new AppError('BAYAN_ASSIGNMENT_MISMATCH');
  const { vehicle, driver } = await repo.fleetFacts(tx, load.vehicle_id, load.driver_id);
  if (
    !vehicle ||
    !driver ||
    vehicle.ownerId !== load.carrier_id ||
    driver.ownerId !== load.carrier_id ||
    vehicle.state !== 'active' ||
    driver.state !== 'active'
  )
    throw new AppError('BAYAN_ASSIGNMENT_MISMATCH');
  if (vehicle.weightKg < FLEET_LIMITS.waslMinWeightKg) throw new AppError('BAYAN_UNDER_MIN_WEIGHT');
  // WASL applies from 3.5 t (checked above): both must be verified
  if (vehicle.waslStatus !== 'verified' || driver.waslStatus !== 'verified') throw new AppError('WASL_NOT_VERIFIED');
  const facts = await repo.tripFacts(tx, load.id);
  if (!facts) throw new AppError('NOT_FOUND');
  const cfg = await repo.getWaybillConfig(tx, facts.shipperId);
  const sender = cfg
    ? { name: cfg.senderName, phone: cfg.senderPhone, countryCode: 'SA' as const, cityId: cfg.senderCityId, address: cfg.senderAddress }
    : { name: facts.shipperCompany, phone: facts.shipperPhone, countryCode: 'SA' as const, cityId: facts.pickupCityId, address: facts.pickupAddress ?? '-' };
  const input: BayanTripInput = {
    vehicle: { plateTypeId: vehicle.plateType, vehiclePlate: elmPlate(vehicle.plateDigits, vehicle.plateLetters) },
    driver: { identityNumber: driver.idNumber, issueNumber: driver.issueCount ?? 1, mobile: driver.phone },
    receivedDate: riyadhDate(facts.pickupAt),
    expectedDeliveryDate: riyadhDate(facts.dropAt),
    notes: facts.referenceId,
    waybills: [
      {
        sender,
        // the post form names no consignee yet: the shipper receives at the drop address
        recipient: { name: facts.shipperCompany, phone: facts.shipperPhone, countryCode: 'SA', cityId: facts.dropCityId, address: facts.dropAddress ?? '-' },
        items: facts.cargo.map((c) => ({ goodTypeId: c.goodsType, quantity: c.quantity, weight: c.weightKg, price: 0, unitId: 5 })),
        fare: Number(facts.bookedPrice ?? facts.price),
        paymentMethodId: DEFAULT_PAYMENT_METHOD,
        paidBySender: true,
        tradable: false,
        receivingLocation: { countryCode: 'SA', cityId: facts.pickupCityId, address: facts.pickupAddress ?? '-' },
        deliveryLocation: { countryCode: 'SA', cityId: facts.dropCityId, address: facts.dropAddress ?? '-' },
      },
    ],
  };
  return { load, input, vehicleId: vehicle.id, driverId: driver.id };
}

/**
 * POST /bayan/trips. Answers `{ trip, created }`: created true (201) with Bayan's trip id and
 * waybill number, or false (202) when Bayan did not answer and the shipment waits in
 * pending_bayan for the retry job. Errors: NOT_FOUND, FORBIDDEN, BAYAN_NOT_ASSIGNED,
 * BAYAN_EXISTS, BAYAN_ASSIGNMENT_MISMATCH, BAYAN_UNDER_MIN_WEIGHT, WASL_NOT_VERIFIED,
 * INVALID_TRANSITION, BAYAN_REJECTED.
 */
export async function createBayanTrip(deps: CreateBayanTripDeps, user: CurrentUser, body: CreateBayanBody): Promise<{ trip: BayanTripView; created: boolean }> {
  const { db } = deps;
  // the reservation's id comes out of its transaction: a same-key retry after a crash replays
  // that transaction (lib/tx-journal.ts) and carries on with the committed row
  const { load, input, rowId } = await db.transaction(async (tx) => {
    const p = await prepare(deps, tx, user, body);
    const rowId = newId();
    await repo.insertTrip(tx, {
      id: rowId,
      loadId: p.load.id,
      carrierId: user.id,
      shipperId: p.load.shipper_id,
      vehicleId: p.vehicleId,
      driverId: p.driverId,
      status: 'pending',
      request: p.input,
    });
    return { load: { id: p.load.id }, input: p.input, rowId };
  });
  // Crash guard (issue 22): should this process die before Bayan answers, the retry job
  // picks the pending trip up once it is stale (the shipment shows pending Bayan meanwhile);
  // a trip that is no longer pending by then is skipped. The minute sweep covers a death
  // between the commit above and this send.
  await deps
    .enqueue(rowId, { startAfterSeconds: staleSecondsOf(deps) })
    .catch((e: unknown) => deps.log?.error({ err: e, rowId }, 'bayan guard job not queued'));
  let trip: BayanTrip;
  try {
    trip = await withTimeout(deps, deps.gateway.createTrip(input, { idempotencyKey: bayanIdempotencyKey(load.id, rowId) }));
  } catch (e) {
    if (e instanceof BayanRejectedError) {
      await repo.deleteTrip(db, rowId);
      gatewayError(e);
    }
    // no answer: the shipment waits in pending_bayan, the job retries (one transaction) —
    // unless the job already created it meanwhile (the row is no longer pending)
    const waits = await db.transaction(async (tx) => {
      const r = await repo.getTrip(tx, rowId, true);
      if (!r || r.status !== 'pending') return false;
      await repo.updateTrip(tx, rowId, { attempts: 1, lastError: (e as Error).message.slice(0, 500) });
      const l = await deps.loads.trip(tx, load.id, true);
      if (l?.status === 'assigned') await deps.loads.transition(tx, load.id, 'bayan_requested', user.id, { reason: 'bayan_unavailable' });
      return true;
    });
    if (waits) await deps.enqueue(rowId);
    const v = await view(db, rowId);
    return { trip: v, created: v.status === 'active' };
  }
  await recordCreated(deps, rowId, trip, user.id);
  return { trip: await view(db, rowId), created: true };
}
