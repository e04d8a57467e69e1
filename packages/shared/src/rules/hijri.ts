/**
 * A Gregorian date (`YYYY-MM-DD`) as an Umm al-Qura (Hijri) date `YYYY-MM-DD`, through the
 * platform's Intl calendar `islamic-umalqura` (the calendar Saudi government services use; WASL
 * takes a Saudi driver's date of birth in Hijri). Null when the input is not a valid date.
 */
export function toHijriDate(gregorian: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(gregorian)) return null;
  const d = new Date(`${gregorian}T12:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== gregorian) return null;
  const parts = new Intl.DateTimeFormat('en-u-ca-islamic-umalqura-nu-latn', {
    timeZone: 'UTC',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(d);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const year = get('year').replace(/\D/g, '');
  return `${year.padStart(4, '0')}-${get('month')}-${get('day')}`;
}
