import type { Db } from '../../db/client.ts';
import { journalTransactions } from '../../lib/tx-journal.ts';
import * as repo from './idempotency.repository.ts';

/** How long a key holds its first response (issue 6: 24 h, like Stripe). */
export const IDEMPOTENCY_TTL_HOURS = 24;

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;

export type BeginResult =
  | { kind: 'run' }
  | { kind: 'mismatch' }
  | { kind: 'inProgress' }
  | { kind: 'replay'; statusCode: number; contentType: string | null; body: string }
  /** The request holding the key died after committing: replay its transactions' `journal`. */
  | { kind: 'recover'; journal: Record<string, unknown> };

/**
 * Idempotency keys of creates (issue 6; crash-safe since issue 22). `begin` claims a key for a
 * request: 'run' (first time, or the first request died before committing anything: run it,
 * then `finish` or `release`), 'recover' (the first request died after committing: replay its
 * journal, see lib/tx-journal.ts), 'replay' with the stored first response, 'mismatch' (same
 * key, different request → 422) or 'inProgress' (the first is still running, its lease of
 * `leaseSeconds` renewed by `renew` → 409). Installs the transaction journal on `db`.
 */
export function createIdempotencyService(db: Db, opts: { leaseSeconds?: number } = {}) {
  const leaseSeconds = opts.leaseSeconds ?? 30;
  journalTransactions(db);
  return {
    leaseSeconds,
    async begin(scope: string, key: string, requestHash: string): Promise<BeginResult> {
      if (await repo.claimKey(db, scope, key, requestHash, IDEMPOTENCY_TTL_HOURS, leaseSeconds)) return { kind: 'run' };
      const taken = await repo.takeOverKey(db, scope, key, requestHash, leaseSeconds);
      if (taken) return taken.committed ? { kind: 'recover', journal: taken.journal } : { kind: 'run' };
      const row = await repo.findKey(db, scope, key);
      if (!row) return { kind: 'inProgress' };
      if (row.request_hash !== requestHash) return { kind: 'mismatch' };
      if (row.status_code == null || row.response_body == null) return { kind: 'inProgress' };
      return { kind: 'replay', statusCode: row.status_code, contentType: row.content_type, body: row.response_body };
    },
    renew: (scope: string, key: string) => repo.renewLease(db, scope, key, leaseSeconds),
    finish: (scope: string, key: string, statusCode: number, contentType: string | null, body: string) =>
      repo.saveResponse(db, scope, key, statusCode, contentType, body),
    release: (scope: string, key: string) => repo.releaseKey(db, scope, key),
    /** Cleanup: keys past their 24 h. */
    deleteExpired: () => repo.deleteExpiredKeys(db, IDEMPOTENCY_TTL_HOURS),
  };
}
