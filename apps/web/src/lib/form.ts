import type { z } from 'zod';
import { notifications } from '@mantine/notifications';
import { isValidationKey, localizeValidationMessage } from '@masar/shared';
import i18n from '../i18n';
import { digitSystem } from './digits';
import { ApiError } from './api';
import { readStoredSession } from './storage';

/**
 * zod issues of a shared schema → field errors keyed by dotted path ("stops.0.cityId"; "_form"
 * for the whole object). The shared `v.*` keys are localized into `lang` (their numbers in the
 * reader's digit system, lib/digits.ts); zod's own (English)
 * messages become the generic "check this field". The first issue of a path wins.
 */
export function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[], lang: string = i18n.language): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join('.') || '_form';
    errors[path] ??= isValidationKey(issue.message)
      ? localizeValidationMessage(issue.message, lang, digitSystem(lang))
      : i18n.t('common:errors.invalidField', { lng: lang });
  }
  return errors;
}

/**
 * Field errors of an API error (`errors: [{path, message}]`, paths like `body.cargo[1].length`
 * → `cargo.1.length`), plus error codes mapped to a field (e.g. PHONE_EXISTS → phone). Empty for
 * anything that is not an ApiError.
 */
export function apiFieldErrors(err: unknown, codeToField: Record<string, string> = {}, lang: string = i18n.language): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const e of err.errors)
    out[e.path.replace(/^body\./, '').replace(/\[(\d+)\]/g, '.$1') || '_form'] ??= localizeValidationMessage(e.message, lang, digitSystem(lang));
  const field = codeToField[err.code];
  if (field) out[field] = err.message;
  return out;
}

/**
 * Mantine form `validate` from a shared zod schema (DESIGN §3: one rule, one place), through
 * `fieldErrors`.
 */
export function zodValidate<T>(schema: z.ZodType, lang: () => string = () => i18n.language) {
  return (values: T): Record<string, string> => {
    const r = schema.safeParse(values);
    return r.success ? {} : fieldErrors(r.error.issues, lang());
  };
}

interface ErrorSink {
  setFieldError(path: string, message: string): void;
  values: unknown;
}

/**
 * Show an API error: per-field `errors[].path` inline on the form when the field exists, the
 * rest (or the whole message) as a notification. `fieldOfCode` maps error codes to a field
 * (e.g. PHONE_EXISTS → phone).
 */
export function showApiError(err: unknown, form?: ErrorSink, fieldOfCode: Record<string, string> = {}) {
  if (!(err instanceof ApiError)) {
    notifications.show({ color: 'red', message: i18n.t('common:errors.generic') });
    return;
  }
  // for a signed-in user the session's non-dismissable dialog handles these
  if ((err.code === 'ACCOUNT_SUSPENDED' || err.code === 'ACCOUNT_DELETED') && readStoredSession().uid) return;
  const has = (path: string) =>
    form && path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), form.values) !== undefined;
  let shown = false;
  if (form) {
    for (const e of err.errors) {
      const path = e.path.replace(/^body\./, '');
      if (has(path)) {
        form.setFieldError(path, e.message);
        shown = true;
      }
    }
    const field = fieldOfCode[err.code];
    if (field && has(field)) {
      form.setFieldError(field, err.message);
      return;
    }
  }
  if (!shown)
    notifications.show({ color: 'red', message: err.status === 0 ? i18n.t('common:errors.network') : err.message || i18n.t('common:errors.generic') });
}

export function notifySuccess(message: string) {
  notifications.show({ color: 'masar', message });
}
