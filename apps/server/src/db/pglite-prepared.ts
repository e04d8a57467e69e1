import { parse, PGlite, protocol, types, type messages } from '@electric-sql/pglite';

/**
 * Named prepared statements on embedded PGlite (issue 24).
 *
 * PGlite's `query` sends every statement as the unnamed one (Parse, Describe, Bind, Describe,
 * Execute, Sync), so PostgreSQL parses, analyses and plans it again on every call: about 6 ms
 * of a board search's 15–25 ms at 100k loads. Here a statement is parsed once per PGlite
 * instance under its name (Parse + Describe), and each call sends only Bind, Execute and Sync in
 * one buffer, through PGlite's public protocol API (`execProtocol`, `protocol.serialize`,
 * `parse.parseResults`). Its plan is chosen as on the PostgreSQL pools (db/client.ts):
 * - `custom`: planned for its values on every call (the session runs
 *   plan_cache_mode=force_custom_plan from the first named statement on; an unnamed statement,
 *   every other query, is planned per call whatever the mode);
 * - `generic`: planned once without its values and reused (force_generic_plan around the call,
 *   in the same buffer).
 * Rows come back as drizzle's `db.execute` returns them on PGlite: objects, with timestamps,
 * dates and intervals as PostgreSQL's text (DRIZZLE_RAW_PARSERS), numerics by the column's
 * parser. Errors are PGlite's DatabaseError (code, message), as from `query`.
 */

/** What Describe told of a prepared statement: its parameter types and result row. */
interface Prepared {
  paramTypes: number[];
  /** The RowDescription message, or none for a statement without rows. */
  rowDescription?: messages.BackendMessage;
}

/** The parsers drizzle-orm's PGlite driver gives raw `execute` (drizzle-orm/pglite/session.js): temporal values stay text. */
const keep = (value: string) => value;
const DRIZZLE_RAW_PARSERS: Record<number, (value: string) => unknown> = {
  [types.TIMESTAMP]: keep,
  [types.TIMESTAMPTZ]: keep,
  [types.INTERVAL]: keep,
  [types.DATE]: keep,
  1231: keep, // numeric[]
  1115: keep, // timestamp[]
  1185: keep, // timestamptz[]
  1187: keep, // interval[]
  1182: keep, // date[]
};

/**
 * The most statements kept prepared per PGlite instance: past it the least recently used one is
 * deallocated. Statement texts are per board path and filter set (a few hundred at most), so
 * the bound only guards against a caller that builds its text from values.
 */
export const PGLITE_PREPARED_MAX = 500;

const prepared = new WeakMap<PGlite, Map<string, Prepared>>();

const { serialize } = protocol;
const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const SET_GENERIC = serialize.query('set plan_cache_mode = force_generic_plan');
const SET_CUSTOM = serialize.query('set plan_cache_mode = force_custom_plan');

/** The statements prepared on `pg` (names, least recently used first), for tests. */
export const pglitePreparedNames = (pg: PGlite): string[] => [...(prepared.get(pg)?.keys() ?? [])];

/**
 * Run `text` with `values` ($1…) as the statement prepared under `name` on `pg` (preparing it on
 * first use), with a custom or generic plan. Returns its rows as objects. Must not be called
 * inside one of `pg`'s transactions (it queues behind them, as `query` does).
 */
export async function pgliteNamedQuery<T>(pg: PGlite, name: string, text: string, values: unknown[], plan: 'custom' | 'generic'): Promise<T[]> {
  return pg._runExclusiveTransaction(() =>
    pg._runExclusiveQuery(() => {
      const execute = async (retried: boolean): Promise<T[]> => {
        let statements = prepared.get(pg);
        if (!statements) {
          // the session's mode for named statements (see above), once per instance
          await pg.execProtocol(SET_CUSTOM, { syncToFs: false });
          prepared.set(pg, (statements = new Map()));
        }
        let stmt = statements.get(name);
        if (stmt) {
          // most recently used last
          statements.delete(name);
          statements.set(name, stmt);
        } else {
          const described = await pg.execProtocol(concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]), {
            syncToFs: false,
          });
          stmt = {
            paramTypes: parse.parseDescribeStatementResults(described.messages),
            rowDescription: described.messages.find((m) => m.name === 'rowDescription'),
          };
          statements.set(name, stmt);
          if (statements.size > PGLITE_PREPARED_MAX) {
            const oldest = statements.keys().next().value!;
            statements.delete(oldest);
            await pg.execProtocol(concat([serialize.close({ type: 'S', name: oldest }), serialize.sync()]), { syncToFs: false });
          }
        }
        const params = values.map((v, i) => {
          if (v == null) return null;
          const serializer = pg.serializers[stmt.paramTypes[i]];
          if (serializer) return serializer(v);
          // as PGlite's query serializes a value of a type it has no serializer for (its text)
          if (v instanceof Date) return v.toISOString();
          if (typeof v === 'object') return JSON.stringify(v);
          const primitive = v as string | number | boolean | bigint;
          return String(primitive);
        });
        const run = [serialize.bind({ statement: name, values: params }), serialize.execute({}), serialize.sync()];
        // a generic plan: the mode only for this execution, set back in the same buffer (the
        // Query after Sync runs even when the execution failed)
        const buffer = plan === 'generic' ? concat([SET_GENERIC, ...run, SET_CUSTOM]) : concat(run);
        let messages: messages.BackendMessage[];
        try {
          ({ messages } = await pg.execProtocol(buffer));
        } catch (e) {
          // 26000: the session lost its prepared statements (DEALLOCATE ALL, DISCARD ALL): prepare anew
          if ((e as { code?: string }).code === '26000' && !retried) {
            statements.delete(name);
            return execute(true);
          }
          throw e;
        }
        // the execution's rows: from BindComplete to its CommandComplete (the SETs around a generic
        // execution answer with their own CommandComplete)
        const from = messages.findIndex((m) => m.name === 'bindComplete');
        const to = messages.findIndex((m, i) => i > from && m.name === 'commandComplete');
        const rows = messages.slice(from + 1, to + 1);
        const [result] = parse.parseResults(stmt.rowDescription ? [stmt.rowDescription, ...rows] : rows, pg.parsers, {
          rowMode: 'object',
          parsers: DRIZZLE_RAW_PARSERS,
        });
        return (result?.rows ?? []) as T[];
      };
      return execute(false);
    }),
  );
}
