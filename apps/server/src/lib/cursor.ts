import { AppError } from './errors.ts';

/** The SQL type of a sort key in a keyset cursor; each is checked before it reaches SQL. */
export type CursorKeyType = 'timestamptz' | 'numeric' | 'float8';

const KEY_FORMAT: Record<CursorKeyType, RegExp> = {
  // PostgreSQL's text output of timestamptz, e.g. 2026-11-23 18:00:00.123456+00
  timestamptz: /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d{1,6})?([+-]\d\d(:\d\d)?|Z)?$/,
  numeric: /^-?\d{1,15}(\.\d{1,6})?$/,
  float8: /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i,
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A keyset cursor (issue 10: deep pages): the last row's sort key(s) — as PostgreSQL's own text,
 * so that microseconds and numerics survive exactly — and its id, tagged with the ordering it
 * belongs to, as opaque base64url. A client passes it back unchanged as `cursor`.
 */
export const encodeCursor = (tag: string, key: string[], id: string): string => Buffer.from(JSON.stringify([tag, key, id])).toString('base64url');

/**
 * The cursor back, checked against the ordering it must belong to (`tag`) and the key types of
 * that ordering. Anything else — another sort's cursor, a tampered value — is a 400
 * VALIDATION_FAILED on `cursor` (`v.invalid`), never a database error.
 */
export function decodeCursor(cursor: string, tag: string, types: readonly CursorKeyType[]): { key: string[]; id: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString());
  } catch {
    parsed = null;
  }
  const [t, key, id] = Array.isArray(parsed) ? (parsed as unknown[]) : [];
  const ok =
    t === tag &&
    typeof id === 'string' &&
    UUID.test(id) &&
    Array.isArray(key) &&
    key.length === types.length &&
    key.every((k, i) => typeof k === 'string' && KEY_FORMAT[types[i]].test(k));
  if (!ok) throw new AppError('VALIDATION_FAILED', { errors: [{ path: 'cursor', message: 'v.invalid' }] });
  return { key: key as string[], id: id };
}

/**
 * The cursor back of a keyset over one timestamptz key (PostgreSQL text, microseconds) and an id,
 * as `{ k, id }`; null when there is none. A forged or foreign one is a 400 VALIDATION_FAILED on
 * `cursor` (decodeCursor).
 */
export function afterTimestampCursor(cursor: string | undefined, tag: string): { k: string; id: string } | null {
  if (!cursor) return null;
  const { key, id } = decodeCursor(cursor, tag, ['timestamptz']);
  return { k: key[0], id };
}
