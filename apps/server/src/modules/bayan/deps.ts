import type { Db } from '../../db/client.ts';
import type { BayanGateway } from '../../gateways/bayan/bayan.ts';
import type { BayanLoads } from './ports.ts';

/**
 * What the Bayan module's use cases may touch; each use case names its share with
 * `Pick<BayanDeps, …>`. The container builds it (container.ts).
 */
export interface BayanDeps {
  db: Db;
  gateway: BayanGateway;
  loads: BayanLoads;
  /** Queue the retry job of a pending trip (pg-boss `bayan.create`), at once or after `startAfterSeconds`. */
  enqueue(tripRowId: string, opts?: { startAfterSeconds?: number }): Promise<void>;
  /** How long a Bayan call may take before the shipment waits in pending_bayan, ms. */
  timeoutMs: number;
  /**
   * After how many seconds a trip still `pending` is known to have lost its request (the
   * process died mid-creation) and its job sends it (issue 22). Raised to timeoutMs + 5 s so a
   * live request is never doubled. Default 30.
   */
  staleSeconds?: number;
  log?: { error(obj: unknown, msg: string): void };
}
