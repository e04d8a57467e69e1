import type { z } from 'zod';
import { localizeValidationMessage } from '@masar/shared';
import { ApiError } from '../../../lib/api';

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
  if (r.success) return { ok: true, data: r.data };
  const errors: FormErrors = {};
  for (const issue of r.error.issues) {
    const path = issue.path.join('.');
    errors[path] ??= localizeValidationMessage(issue.message, lang);
  }
  return { ok: false, errors };
}

/** Field errors from an API error (`errors: [{path, message}]`), plus known codes mapped to a field. */
export function serverErrors(e: unknown, codeToField: Record<string, string> = {}): FormErrors {
  if (!(e instanceof ApiError)) return {};
  const out: FormErrors = {};
  for (const x of e.errors) out[x.path.replace(/^body\./, '')] ??= x.message;
  const f = codeToField[e.code];
  if (f) out[f] = e.message;
  return out;
}

/** '' → undefined (optional fields), trimmed strings otherwise. */
export const opt = (v: string | null | undefined) => (v === null || v === undefined || v.trim() === '' ? undefined : v.trim());
export const optNum = (v: string | number | null | undefined) => (v === '' || v === null || v === undefined ? undefined : v);
