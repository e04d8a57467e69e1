import { localizeValidationMessage } from '@masar/shared';

/**
 * zod issues of the shared schema → field errors keyed by dotted path ("stops.0.cityId",
 * "cargo.1.length", "price"), messages in the user's language. The first issue of a path wins.
 */
export function issuesToErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[], lang: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) {
    const key = i.path.map(String).join('.') || '_form';
    out[key] ??= localizeValidationMessage(i.message, lang);
  }
  return out;
}

/** Server field errors ({path, message}, message already localized) → the same map. */
export function serverErrorsToMap(errors: { path: string; message: string }[], lang: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) out[e.path.replace(/^body\./, '').replace(/\[(\d+)\]/g, '.$1') || '_form'] ??= localizeValidationMessage(e.message, lang);
  return out;
}
