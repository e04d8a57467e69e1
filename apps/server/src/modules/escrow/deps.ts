import type { Db, DbOrTx } from '../../db/client.ts';
import type { LedgerPost } from '../ledger/ledger.service.ts';

/** The billing wallet's side of an escrow (billing's use-cases/escrow-wallet.ts), inside the caller's transaction. */
export interface EscrowWallet {
  /** Debit the payer's wallet `halalas` for an escrow; INSUFFICIENT_WALLET_BALANCE when it does not cover it. */
  debit(tx: DbOrTx, userId: string, halalas: number, escrowId: string): Promise<void>;
  /** Return `halalas` of an escrow to the payer's wallet (once per escrow). */
  credit(tx: DbOrTx, userId: string, halalas: number, escrowId: string): Promise<void>;
}

/** What payment protection's use cases touch (the container wires the other modules' ports). */
export interface EscrowDeps {
  db: Db;
  /** The ledger's post port (modules/ledger), called inside the escrow's transaction. */
  ledgerPost: LedgerPost;
  wallet: EscrowWallet;
  /** The dispute window after completion, ms (config ESCROW_DISPUTE_WINDOW_HOURS, default 48 h). */
  disputeWindowMs: number;
  /** Queue the release job of an escrow for `at` (the job runner); the minute sweep is the safety net. */
  scheduleRelease(escrowId: string, at: Date): Promise<void>;
  now?: () => Date;
}
