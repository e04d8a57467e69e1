/**
 * Locale-aware formatting shared by the load board screens (DESIGN §3 "Units"): money in SAR,
 * distances in km, weights in kg, times shown in Asia/Riyadh, Hijri beside Gregorian in Arabic.
 * Everything goes through Intl so separators follow the language and digits follow the reader's
 * digit system (lib/digits.ts: Arabic-Indic or Western, default by language), passed as Intl's
 * `numberingSystem`; every formatter takes it as its last argument, the setting in force by default.
 */
import { digitSystem, inDigitSystem, type DigitSystem } from '../lib/digits';
import { dateTimeFormat, numberFormat } from '../lib/intl';

export type { DigitSystem };
export const RIYADH_TZ = 'Asia/Riyadh';

export type Lang = 'en' | 'ar';
export const asLang = (l: string | undefined): Lang => (l?.startsWith('ar') ? 'ar' : 'en');

const moneyLocale = (lang: Lang) => (lang === 'ar' ? 'ar-SA' : 'en-SA');

/**
 * "1234.50" → "SAR 1,234.50" (en) / "١٬٢٣٤٫٥٠ ر.س." (ar). Amounts come from the API as decimal
 * strings (exact to the halala); Intl formats the string itself, so no float rounds it. Whole
 * amounts drop the ".00" unless `decimals` is given.
 */
export function formatMoney(value: string | number, lang: Lang, opts: { decimals?: number; digits?: DigitSystem } = {}) {
  const s = String(value);
  const d = opts.decimals ?? (/^-?\d+(\.0+)?$/.test(s) ? 0 : 2);
  const fmt = numberFormat(moneyLocale(lang), {
    style: 'currency',
    currency: 'SAR',
    minimumFractionDigits: d,
    maximumFractionDigits: d,
    numberingSystem: opts.digits ?? digitSystem(lang),
  });
  // Intl.NumberFormat v3 formats decimal strings exactly; the type of format() still says number.
  // CLDR's Arabic riyal sign ends with a period ("ر.س."), which doubles with the full stop of
  // a sentence ending in a price ("ر.س.."): the sign is written "ر.س", as Saudi price tags do.
  return fmt
    .formatToParts(s as unknown as number)
    .map((p) => (p.type === 'currency' && lang === 'ar' ? p.value.replace(/\.$/, '') : p.value))
    .join('');
}

/** A count, distance or weight: grouped, at most `maxFractionDigits` decimals ("1,022.1" / "١٬٠٢٢٫١"). */
export function formatNumber(value: number, lang: Lang, maxFractionDigits = 0, digits: DigitSystem = digitSystem(lang)) {
  return numberFormat(moneyLocale(lang), { maximumFractionDigits: maxFractionDigits, numberingSystem: digits }).format(value);
}

/**
 * A count the API caps (COUNT_CAP, issue 10): exact below the cap, else "1,000+" (en) /
 * "+١٬٠٠٠" (ar) — the plus on the reading side of each script.
 */
export function formatCount(value: number, capped: boolean | undefined, lang: Lang, digits: DigitSystem = digitSystem(lang)) {
  const n = formatNumber(value, lang, 0, digits);
  if (!capped) return n;
  return lang === 'ar' ? `+${n}` : `${n}+`;
}

/** A rate as a percentage: 0.15 → "15%" (en) / "١٥٪؜" (ar, arab). */
export function formatPercent(rate: number, lang: Lang, digits: DigitSystem = digitSystem(lang)) {
  return numberFormat(moneyLocale(lang), { style: 'percent', maximumFractionDigits: 2, numberingSystem: digits }).format(rate);
}

/** A time of day on the 24-hour clock, for opening hours: (8, 0) → "8:00" / "٨:٠٠", (17, 0) → "17:00". */
export function formatClock(hour: number, minute: number, lang: Lang, digits: DigitSystem = digitSystem(lang)) {
  return dateTimeFormat(lang === 'ar' ? 'ar-SA-u-ca-gregory' : 'en-GB', {
    timeZone: 'UTC',
    numberingSystem: digits,
    hour: 'numeric',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(Date.UTC(2000, 0, 1, hour, minute)));
}

/** Gregorian date (and time) in Riyadh time. Arabic uses the Gregorian calendar explicitly (ar-SA defaults to Hijri). */
export function formatDate(iso: string | Date, lang: Lang, withTime = true, digits: DigitSystem = digitSystem(lang)) {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return '';
  return dateTimeFormat(lang === 'ar' ? 'ar-SA-u-ca-gregory' : 'en-GB', {
    timeZone: RIYADH_TZ,
    numberingSystem: digits,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    ...(withTime ? { hour: '2-digit', minute: '2-digit', hour12: lang === 'ar' } : {}),
  }).format(d);
}

/** No line break inside a date: its spaces become no-break spaces, so "هـ" never wraps alone. */
const nowrap = (s: string) => s.replace(/\s/g, '\u00a0');

/** Hijri (Umm al-Qura) date in Riyadh time, e.g. "٢٢ جمادى الأولى ١٤٤٨ هـ", written as one unbreakable unit. */
export function formatHijri(iso: string | Date, lang: Lang = 'ar', digits: DigitSystem = digitSystem(lang)) {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return '';
  return nowrap(
    dateTimeFormat(lang === 'ar' ? 'ar-SA-u-ca-islamic-umalqura' : 'en-SA-u-ca-islamic-umalqura', {
      timeZone: RIYADH_TZ,
      numberingSystem: digits,
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    }).format(d),
  );
}

/**
 * The compact date for cards and list rows (issue 9): day, short month and time in Riyadh, no
 * year — "23 Nov, 08:30" (en) / "٢٣ نوفمبر، ٨:٣٠ ص (٢ جمادى الآخرة)" (ar, with the Hijri day
 * and month). Each date is one unbreakable unit; a line may break only between the Gregorian
 * date and its Hijri twin, never before a lone letter.
 */
export function formatDateCompact(iso: string | Date, lang: Lang, digits: DigitSystem = digitSystem(lang)) {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return '';
  const g = dateTimeFormat(lang === 'ar' ? 'ar-SA-u-ca-gregory' : 'en-GB', {
    timeZone: RIYADH_TZ,
    numberingSystem: digits,
    day: 'numeric',
    month: 'short',
    hour: lang === 'ar' ? 'numeric' : '2-digit',
    minute: '2-digit',
    hour12: lang === 'ar',
  }).format(d);
  if (lang !== 'ar') return nowrap(g);
  const h = dateTimeFormat('ar-SA-u-ca-islamic-umalqura', { timeZone: RIYADH_TZ, numberingSystem: digits, day: 'numeric', month: 'long' }).format(d);
  return `${nowrap(g)} (${nowrap(h)})`;
}

/** Saudi Arabia has no daylight saving time: Riyadh is always UTC+03:00. */
const RIYADH_OFFSET_MIN = 180;

/**
 * A date-picker wall-clock value ("YYYY-MM-DD HH:mm:ss", read as Riyadh time) → ISO with
 * offset ("YYYY-MM-DDTHH:mm:ss+03:00"), what the API takes. Null/empty → ''.
 */
export function pickerToIso(v: string | null | undefined): string {
  if (!v) return '';
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?/.exec(v);
  if (!m) return '';
  return `${m[1]}T${m[2]}${m[3] ?? ':00'}+03:00`;
}

/** ISO instant → the Riyadh wall-clock string a date picker shows ("YYYY-MM-DD HH:mm:ss"). */
export function isoToPicker(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return null;
  const d = new Date(t + RIYADH_OFFSET_MIN * 60_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

/** "YYYY-MM-DD" (a calendar day in Riyadh) → ISO of its start or end in Riyadh time. */
export function dayToIso(day: string | null | undefined, end = false): string | undefined {
  if (!day) return undefined;
  const d = day.slice(0, 10);
  return `${d}T${end ? '23:59:59' : '00:00:00'}+03:00`;
}

/** A city's name in the user's language. */
export const cityName = (c: { nameEn: string; nameAr: string } | undefined | null, lang: Lang) => (c ? (lang === 'ar' ? c.nameAr : c.nameEn) : '');

/** A call's length, mm:ss (h:mm:ss past an hour), of `seconds`, in the reader's digits: 65 → "01:05" / "٠١:٠٥". */
export function formatCallDuration(seconds: number, lang?: string): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return inDigitSystem(h ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`, lang);
}
