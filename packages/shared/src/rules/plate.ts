/**
 * Saudi number plates (spec §3 Vehicle "number plate: 4 digits plus three Arabic letters: left,
 * middle, right", §5 "plate starts with 4 digits, ends with 3 Arabic letters, all plate fields
 * filled", "plate … cannot be all zeros"). Letters and types: ../shared/data/sa/plates.json
 * (copy in apps/server/src/db/reference/plates.json, see its SOURCE.md).
 */

/**
 * The 17 letters a Saudi plate may carry, with the Latin letter printed under each and the
 * keyboard variants (aliases) people type for some of them. Aliases are input conveniences:
 * stored values are always the canonical Arabic letter.
 */
/** A plate's number: this many digits (spec §5). */
export const PLATE_DIGITS = 4;
const PLATE_DIGITS_RE = new RegExp(`^\\d{${PLATE_DIGITS}}$`);

export const PLATE_LETTERS = [
  { ar: 'ا', latin: 'A', aliases: ['أ', 'إ', 'آ'] },
  { ar: 'ب', latin: 'B', aliases: [] },
  { ar: 'ح', latin: 'J', aliases: [] },
  { ar: 'د', latin: 'D', aliases: [] },
  { ar: 'ر', latin: 'R', aliases: [] },
  { ar: 'س', latin: 'S', aliases: [] },
  { ar: 'ص', latin: 'X', aliases: [] },
  { ar: 'ط', latin: 'T', aliases: [] },
  { ar: 'ع', latin: 'E', aliases: [] },
  { ar: 'ق', latin: 'G', aliases: [] },
  { ar: 'ك', latin: 'K', aliases: [] },
  { ar: 'ل', latin: 'L', aliases: [] },
  { ar: 'م', latin: 'Z', aliases: [] },
  { ar: 'ن', latin: 'N', aliases: [] },
  { ar: 'ه', latin: 'H', aliases: ['هـ'] },
  { ar: 'و', latin: 'U', aliases: [] },
  { ar: 'ى', latin: 'V', aliases: ['ي'] },
] as const;

export type PlateLetter = (typeof PLATE_LETTERS)[number]['ar'];
export const PLATE_LETTER_VALUES: readonly string[] = PLATE_LETTERS.map((l) => l.ar);

/**
 * Plate (registration) types; ids 1–11 are the WASL / Muroor registration-type codes
 * (plates.json `plate_types`).
 */
export const PLATE_TYPES = [
  { id: 1, code: 'private', en: 'Private', ar: 'خصوصي' },
  { id: 2, code: 'public_transport', en: 'Public Transport', ar: 'نقل عام' },
  { id: 3, code: 'private_transport', en: 'Private Transport', ar: 'نقل خاص' },
  { id: 4, code: 'public_minibus', en: 'Public Minibus', ar: 'حافلة صغيرة عامة' },
  { id: 5, code: 'private_minibus', en: 'Private Minibus', ar: 'حافلة صغيرة خاصة' },
  { id: 6, code: 'taxi', en: 'Taxi', ar: 'أجرة' },
  { id: 7, code: 'heavy_equipment', en: 'Heavy Equipment / Public Works', ar: 'معدات ثقيلة' },
  { id: 8, code: 'export', en: 'Export', ar: 'تصدير' },
  { id: 9, code: 'diplomatic', en: 'Diplomatic', ar: 'دبلوماسي' },
  { id: 10, code: 'motorcycle', en: 'Motorcycle', ar: 'دراجة نارية' },
  { id: 11, code: 'temporary', en: 'Temporary', ar: 'مؤقت' },
] as const;
export const PLATE_TYPE_IDS: readonly number[] = PLATE_TYPES.map((t) => t.id);

const TATWEEL = /\u0640/g;
const LETTER_BY_CHAR = new Map<string, string>();
for (const l of PLATE_LETTERS) {
  LETTER_BY_CHAR.set(l.ar, l.ar);
  LETTER_BY_CHAR.set(l.latin, l.ar);
  LETTER_BY_CHAR.set(l.latin.toLowerCase(), l.ar);
  for (const a of l.aliases) LETTER_BY_CHAR.set(a.replace(TATWEEL, ''), l.ar);
}

/**
 * Canonical Arabic plate letter for a typed letter: the Arabic letter itself, an alias
 * (أ/إ/آ→ا, هـ→ه, ي→ى) or the Latin twin (A→ا). Returns null when it is not a plate letter.
 */
export function normalizePlateLetter(input: string): string | null {
  const s = input.replace(TATWEEL, '').trim();
  return LETTER_BY_CHAR.get(s) ?? null;
}

/** Latin letter printed under a plate letter ('' when not a plate letter). */
export function plateLatin(letter: string): string {
  const ar = normalizePlateLetter(letter);
  return PLATE_LETTERS.find((l) => l.ar === ar)?.latin ?? '';
}

/** Arabic-Indic (٠-٩) and Persian (۰-۹) digits to Latin; other characters unchanged. */
export function toLatinDigits(input: string): string {
  return input.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660)).replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0));
}

/** True when the string is made only of zeros (spec §5: "cannot be all zeros"). */
export function isAllZeros(value: string): boolean {
  return /^0+$/.test(value);
}

/** Plate digits: exactly 4 Latin digits, not all zeros (after Arabic-digit conversion). */
export function isValidPlateDigits(digits: string): boolean {
  const d = toLatinDigits(digits.trim());
  return PLATE_DIGITS_RE.test(d) && !isAllZeros(d);
}

/** A plate: digits + three letters in their visual position on the plate. */
export interface Plate {
  digits: string;
  left: string;
  middle: string;
  right: string;
}

/**
 * The stored form of a plate's letters (column `vehicles.plate_letters`): left, middle, right as
 * one string of three letters. `plateFromStored` reads it back.
 */
export function storedPlateLetters(p: Pick<Plate, 'left' | 'middle' | 'right'>): string {
  return `${p.left}${p.middle}${p.right}`;
}

/** A plate from its stored columns (`plate_digits`, `plate_letters` = left, middle, right). */
export function plateFromStored(digits: string, letters: string): Plate {
  const [left = '', middle = '', right = ''] = [...letters];
  return { digits, left, middle, right };
}

/**
 * Normalise a plate (digits to Latin, letters to canonical Arabic). Returns null when any
 * part is missing or invalid (spec §5 "all plate fields filled").
 */
export function normalizePlate(p: Plate): Plate | null {
  const digits = toLatinDigits(p.digits.trim());
  const left = normalizePlateLetter(p.left);
  const middle = normalizePlateLetter(p.middle);
  const right = normalizePlateLetter(p.right);
  if (!isValidPlateDigits(digits) || !left || !middle || !right) return null;
  return { digits, left, middle, right };
}

/**
 * Uniqueness key of a plate: digits + letters left→right, e.g. `1234-ابد`. Two plates with the
 * same key are the same plate (duplicate plates are rejected, spec §5).
 */
export function plateKey(p: Plate): string {
  return `${p.digits}-${p.left}${p.middle}${p.right}`;
}

/**
 * Parse a plate written as one string (CSV, search): 4 digits and 3 letters in any order of
 * groups, separated or not, Arabic or Latin letters, e.g. "1234 ا ب د", "ABD-1234",
 * "١٢٣٤ دبأ". Arabic letters are taken in reading order (right, middle, left), Latin letters
 * left to right (plates.json `letter_order_note`).
 */
export function parsePlateString(input: string): Plate | null {
  const s = toLatinDigits(input.replace(TATWEEL, ''));
  const digits = s.replace(/[^0-9]/g, '');
  const letters = [...s.replace(/[0-9\s\-_/|.,]/g, '')];
  if (letters.length !== 3) return null;
  // Arabic is written right to left: its logical (reading) order is right, middle, left.
  // Latin letters are read left to right, as printed under the Arabic ones (plates.json note).
  const arabic = letters.every((c) => /[\u0600-\u06FF]/.test(c));
  const [a, b, c] = letters;
  return normalizePlate(arabic ? { digits, right: a, middle: b, left: c } : { digits, left: a, middle: b, right: c });
}

/**
 * Format a plate as one string: digits, then the Arabic letters in reading order (right,
 * middle, left) — the plate left ا, middle ب, right د is `1234 د ب ا`, which an RTL line shows
 * as on the plate. `parsePlateString` reads it back.
 */
export function formatPlate(p: Plate): string {
  return `${p.digits} ${p.right} ${p.middle} ${p.left}`;
}
