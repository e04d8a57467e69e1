/**
 * Cached Intl formatters. Building an `Intl.NumberFormat` or `Intl.DateTimeFormat` costs far
 * more than using one (locale negotiation, ICU data); the home page formats a few hundred
 * numbers and dates on its first render, and building each anew took ≈ 70 ms of its main thread
 * on a loaded 2-core machine (CPU profile, issue 9 LCP). Formatters are immutable, so one per
 * locale and options is kept for the page's life (a few dozen distinct keys at most).
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** `new Intl.NumberFormat(locale, options)`, built once per distinct pair. */
export function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let f = numberFormats.get(key);
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

/** `new Intl.DateTimeFormat(locale, options)`, built once per distinct pair. */
export function dateTimeFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let f = dateFormats.get(key);
  if (!f) dateFormats.set(key, (f = new Intl.DateTimeFormat(locale, options)));
  return f;
}
