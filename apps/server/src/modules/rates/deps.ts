import type { Db, DbOrTx } from '../../db/client.ts';
import type { RateFacts } from '../loads/loads.service.ts';

/**
 * What the rates index's use cases may touch: `db` (the primary: the handler, the bulk load, the
 * backfill), `readDb` (the index and history queries; a read replica when there is one, else
 * the primary — createRatesService fills it in) and `rateFactsOf`, the loads module's rate facts
 * of a booked load (null: not booked), read inside the handler's transaction (wired by the container).
 */
export interface RatesDeps {
  db: Db;
  readDb: Db;
  rateFactsOf: RateFactsOf;
}

/** The loads module's rate facts of a load, inside the caller's transaction (null: not booked). */
export type RateFactsOf = (db: DbOrTx, loadId: string) => Promise<RateFacts | null>;
