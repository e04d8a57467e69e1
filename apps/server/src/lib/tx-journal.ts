import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { AppError } from './errors.ts';

/**
 * The transaction journal of an idempotent request (issue 22, crash-safe Idempotency-Key).
 *
 * While a request that holds an Idempotency-Key runs, every top-level `db.transaction` it makes
 * also stamps the key's row, INSIDE that transaction, with the transaction's result:
 * `committed_at = now()` and `journal[i] = result` (i = the transaction's order in the request).
 * So a committed write always leaves its trace on the key, and a write that did not commit
 * leaves none. After a crash, a retry that takes the key over either
 * - finds no committed transaction: runs the request again (nothing was written), or
 * - replays the journal: the i-th transaction is NOT run again, it returns its recorded result,
 *   and the handler reads the original result back from the committed rows (routes whose
 *   handler derives its answer from its transactions' results: `idempotencyReplay` routes).
 *
 * Nested transactions (savepoints, `tx.transaction`) are part of their parent and not stamped.
 */
export interface TxJournal {
  scope: string;
  key: string;
  /** The next transaction's index. */
  next: number;
  /** Recorded results to replay (encoded), by index; empty on a first run. */
  replay: Record<string, unknown>;
}

interface Store {
  journal: TxJournal | null;
}

const als = new AsyncLocalStorage<Store>();

/** Run `fn` (a request's hook chain) with an empty journal slot the idempotency hook may fill. */
export function runWithJournalSlot(fn: () => void): void {
  als.run({ journal: null }, fn);
}

/** Attach `journal` to the current request (called from the idempotency preHandler). */
export function setJournal(journal: TxJournal | null): void {
  const store = als.getStore();
  if (store) store.journal = journal;
}

/**
 * When the request recovers a crashed run and its next transaction committed then: that
 * transaction's recorded result (its slot is used up, as if the transaction had been replayed);
 * otherwise null. For creates with an effect outside the database before their transaction (a
 * stored file's bytes, a card tokenized at the gateway): the replay skips that effect too and
 * answers what was committed, e.g. the stored file's id.
 */
export function replayNext(): { value: unknown } | null {
  const j = als.getStore()?.journal;
  if (!j || !Object.hasOwn(j.replay, String(j.next))) return null;
  const i = j.next++;
  return { value: decodeResult(j.replay[String(i)]) };
}

/** JSON with Dates kept ({"$date": iso}) and undefined kept ({"$undefined": true}). */
export function encodeResult(value: unknown): string {
  if (value === undefined) return '{"$undefined":true}';
  try {
    return encodeJson(value);
  } catch {
    // not JSON (a cycle …): recorded as opaque; a replay of it refuses instead of guessing
    return '{"$opaque":true}';
  }
}

function encodeJson(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, k: string, v: unknown) {
    const raw = this[k];
    if (raw instanceof Date) return { $date: raw.toISOString() };
    if (typeof raw === 'bigint') return { $bigint: raw.toString() };
    return v;
  });
}

export function decodeResult(value: unknown): unknown {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      if (keys.length === 1 && keys[0] === '$date' && typeof o.$date === 'string') return new Date(o.$date);
      if (keys.length === 1 && keys[0] === '$bigint' && typeof o.$bigint === 'string') return BigInt(o.$bigint);
      if (keys.length === 1 && keys[0] === '$undefined') return undefined;
      if (keys.length === 1 && keys[0] === '$opaque') throw new AppError('IDEMPOTENCY_IN_PROGRESS');
      return Object.fromEntries(keys.map((k) => [k, walk(o[k])]));
    }
    return v;
  };
  return walk(value);
}

const WRAPPED = Symbol('txJournal');

/**
 * Make `db.transaction` journal-aware (once per Db object; the services share that object).
 * Outside an idempotent request it is the plain transaction.
 */
export function journalTransactions(db: Db): void {
  const target = db as Db & { [WRAPPED]?: true };
  if (target[WRAPPED]) return;
  target[WRAPPED] = true;
  const original = db.transaction.bind(db);
  const wrapped = (async (fn: Parameters<Db['transaction']>[0], config?: Parameters<Db['transaction']>[1]) => {
    const j = als.getStore()?.journal;
    if (!j) return original(fn, config);
    const i = j.next++;
    if (Object.hasOwn(j.replay, String(i))) return decodeResult(j.replay[String(i)]);
    return original(async (tx) => {
      const result = await fn(tx);
      await tx.execute(
        sql`update idempotency_keys set committed_at = coalesce(committed_at, now()),
              journal = coalesce(journal, '{}'::jsonb) || jsonb_build_object(${String(i)}::text, ${encodeResult(result)}::jsonb)
            where scope = ${j.scope} and key = ${j.key}`,
      );
      return result;
    }, config);
  }) as Db['transaction'];
  target.transaction = wrapped;
}
