import type { Db } from '../../db/client.ts';
import type { LedgerPost } from '../ledger/ledger.service.ts';

/** What detention's use cases touch: the database, the ledger's post port, the clock. */
export interface DetentionDeps {
  db: Db;
  ledgerPost: LedgerPost;
  now?: () => Date;
}
