import type { DomainEventType, LoadAction, LoadStatus } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';

/**
 * What the Bayan module asks of the loads module (loadLifecycle in loads.service.ts; wired by
 * the container): the booked shipment, its state machine and its events.
 */
export interface BayanLoads {
  trip(
    db: DbOrTx,
    loadId: string,
    lock?: boolean,
  ): Promise<{
    id: string;
    shipper_id: string;
    carrier_id: string | null;
    status: string;
    vehicle_id: string | null;
    driver_id: string | null;
    delivered_at: Date | string | null;
  } | null>;
  transition(
    tx: DbOrTx,
    loadId: string,
    action: LoadAction,
    actorId: string | null,
    data?: Record<string, unknown>,
    set?: { deliveredAt?: Date },
  ): Promise<LoadStatus>;
  event(tx: DbOrTx, type: DomainEventType, loadId: string, shipperId: string, actorId: string | null, data: Record<string, unknown>): Promise<unknown>;
}
