import type { Db } from '../../db/client.ts';
import * as repo from './idempotency.repository.ts';

/** How long a key holds its first response (issue 6: 24 h, like Stripe). */
export const IDEMPOTENCY_TTL_HOURS = 24;

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;

/**
 * Idempotency keys of creates (issue 6). `begin` claims a key for a request: 'run' (first
 * time: run it, then `finish` or `release`), 'replay' with the stored first response,
 * 'mismatch' (same key, different request → 422) or 'inProgress' (the first is still running
 * → 409).
 */
export function createIdempotencyService(db: Db) {
  return {
    async begin(
      scope: string,
      key: string,
      requestHash: string,
    ): Promise<
      { kind: 'run' } | { kind: 'mismatch' } | { kind: 'inProgress' } | { kind: 'replay'; statusCode: number; contentType: string | null; body: string }
    > {
      if (await repo.claimKey(db, scope, key, requestHash, IDEMPOTENCY_TTL_HOURS)) return { kind: 'run' };
      const row = await repo.findKey(db, scope, key);
      if (!row) return { kind: 'inProgress' };
      if (row.request_hash !== requestHash) return { kind: 'mismatch' };
      if (row.status_code == null || row.response_body == null) return { kind: 'inProgress' };
      return { kind: 'replay', statusCode: row.status_code, contentType: row.content_type, body: row.response_body };
    },
    finish: (scope: string, key: string, statusCode: number, contentType: string | null, body: string) =>
      repo.saveResponse(db, scope, key, statusCode, contentType, body),
    release: (scope: string, key: string) => repo.releaseKey(db, scope, key),
    /** Cleanup: keys past their 24 h. */
    deleteExpired: () => repo.deleteExpiredKeys(db, IDEMPOTENCY_TTL_HOURS),
  };
}
