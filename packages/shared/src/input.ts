/**
 * Input that PostgreSQL cannot store (issue 6): text columns refuse U+0000 (NUL) and JSON/text
 * refuse a lone UTF-16 surrogate (invalid UTF-8). One rule for every request: the server checks
 * body, query and params with it before the route's zod schema runs, and answers 400 with
 * `v.textInvalid` at the offending path instead of a 500 from the database.
 */

/** Largest value of a PostgreSQL `integer` (int4): ids of cities, districts, regions. */
export const INT4_MAX = 2_147_483_647;

// eslint-disable-next-line no-control-regex -- NUL is exactly what this rule looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `s` can be stored as PostgreSQL text: no NUL, no lone surrogate. */
export function isStorableText(s: string): boolean {
  return !UNSTORABLE.test(s);
}

/**
 * The path of the first string (or object key) inside `value` that PostgreSQL cannot store, or
 * null when there is none. Walks arrays and plain objects to `maxDepth` levels; deeper input is
 * reported at the depth limit (nothing legitimate nests that deep).
 */
export function findUnstorableText(value: unknown, maxDepth = 32): (string | number)[] | null {
  const walk = (v: unknown, path: (string | number)[], depth: number): (string | number)[] | null => {
    if (typeof v === 'string') return isStorableText(v) ? null : path;
    if (v === null || typeof v !== 'object') return null;
    if (depth >= maxDepth) return path;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const p = walk(v[i], [...path, i], depth + 1);
        if (p) return p;
      }
      return null;
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (!isStorableText(k)) return [...path, k];
      const p = walk(x, [...path, k], depth + 1);
      if (p) return p;
    }
    return null;
  };
  return walk(value, [], 0);
}
