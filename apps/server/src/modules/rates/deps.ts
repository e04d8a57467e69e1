import type { Db } from '../../db/client.ts';

/**
 * What the rates index's use cases may touch: `db` (the primary: the handler, the bulk load, the
 * backfill) and `readDb` (the index and history queries; a read replica when there is one, else
 * the primary — createRatesService fills it in).
 */
export interface RatesDeps {
  db: Db;
  readDb: Db;
}
