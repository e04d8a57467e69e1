import type { Db } from '../../db/client.ts';

/** What the ledger's use cases touch: the database only (the caller's transaction is passed in). */
export interface LedgerDeps {
  db: Db;
}
