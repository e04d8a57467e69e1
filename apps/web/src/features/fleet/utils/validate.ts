import type { z } from 'zod';
import { fieldErrors } from '../../../lib/form';

/** Form errors keyed by dot path ("plate.digits"), localized. */
export type FormErrors = Record<string, string>;

/**
 * Validate a payload with a shared zod schema (DESIGN §3 "one schema, two consumers"); errors
 * keyed by path with the message in the user's language.
 */
export function validateWith<S extends z.ZodType>(
  schema: S,
  payload: unknown,
  lang: string,
): { ok: true; data: z.output<S> } | { ok: false; errors: FormErrors } {
  const r = schema.safeParse(payload);
  return r.success ? { ok: true, data: r.data } : { ok: false, errors: fieldErrors(r.error.issues, lang) };
}

/** '' → undefined (optional fields), trimmed strings otherwise. */
export const opt = (v: string | null | undefined) => (v === null || v === undefined || v.trim() === '' ? undefined : v.trim());
export const optNum = (v: string | number | null | undefined) => (v === '' || v === null || v === undefined ? undefined : v);
