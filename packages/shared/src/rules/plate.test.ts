import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plateSchema } from '../schemas/fleet.ts';
import {
  formatPlate,
  plateFromStored,
  storedPlateLetters,
  isValidPlateDigits,
  normalizePlate,
  normalizePlateLetter,
  parsePlateString,
  PLATE_LETTERS,
  plateKey,
  plateLatin,
  toLatinDigits,
} from './plate.ts';

const letter = fc.constantFrom(...PLATE_LETTERS.map((l) => l.ar));
const digits4 = fc.integer({ min: 1, max: 9999 }).map((n) => String(n).padStart(4, '0'));
/** Any way a user may type a plate letter: canonical, alias, Latin upper/lower. */
const spelling = (ar: string) => {
  const l = PLATE_LETTERS.find((x) => x.ar === ar)!;
  return fc.constantFrom<string>(l.ar, l.latin, l.latin.toLowerCase(), ...l.aliases);
};
const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';

describe('plate letters', () => {
  it('has the 17 letters of plates.json with unique Latin twins', () => {
    expect(PLATE_LETTERS).toHaveLength(17);
    expect(new Set(PLATE_LETTERS.map((l) => l.latin)).size).toBe(17);
  });
  it('normalises aliases أ→ا, إ→ا, آ→ا, هـ→ه, ي→ى and Latin twins', () => {
    expect(normalizePlateLetter('أ')).toBe('ا');
    expect(normalizePlateLetter('إ')).toBe('ا');
    expect(normalizePlateLetter('آ')).toBe('ا');
    expect(normalizePlateLetter('هـ')).toBe('ه');
    expect(normalizePlateLetter('ي')).toBe('ى');
    expect(normalizePlateLetter('J')).toBe('ح');
    expect(normalizePlateLetter('x')).toBe('ص');
    expect(plateLatin('ي')).toBe('V');
  });
  it('rejects letters that are not on Saudi plates', () => {
    for (const ch of ['ت', 'ث', 'ج', 'خ', 'ذ', 'ز', 'ش', 'ض', 'ظ', 'غ', 'ف', 'C', 'F', '1', '', 'ab']) expect(normalizePlateLetter(ch)).toBeNull();
  });
  it('property: every spelling of a letter normalises to the canonical letter', () => {
    fc.assert(
      fc.property(
        letter.chain((ar) => spelling(ar).map((s) => [ar, s] as const)),
        ([ar, s]) => normalizePlateLetter(s) === ar,
      ),
    );
  });
});

describe('plate digits and whole plates', () => {
  it('needs exactly 4 digits, not all zeros (spec §5)', () => {
    expect(isValidPlateDigits('1234')).toBe(true);
    expect(isValidPlateDigits('0001')).toBe(true);
    expect(isValidPlateDigits('٤٥٦٧')).toBe(true);
    for (const d of ['0000', '123', '12345', '12a4', '', ' ']) expect(isValidPlateDigits(d)).toBe(false);
  });
  it('converts Arabic-Indic digits', () => {
    expect(toLatinDigits('١٢٣٤')).toBe('1234');
    expect(toLatinDigits('۱۲۳۴')).toBe('1234');
  });
  it('property: plates written with any spelling and digit script share one key (duplicate detection)', () => {
    const typed = fc
      .tuple(digits4, letter, letter, letter)
      .chain(([d, a, b, c]) => fc.tuple(fc.constant({ digits: d, left: a, middle: b, right: c }), spelling(a), spelling(b), spelling(c), fc.boolean()));
    fc.assert(
      fc.property(typed, ([canonical, sa, sb, sc, arabicDigits]) => {
        const dd = arabicDigits ? [...canonical.digits].map((x) => ARABIC_INDIC[Number(x)]).join('') : canonical.digits;
        const p = normalizePlate({ digits: dd, left: sa, middle: sb, right: sc });
        expect(p).not.toBeNull();
        expect(plateKey(p!)).toBe(plateKey(canonical));
      }),
      { numRuns: 500 },
    );
  });
  it('reads Arabic plate text right to left and Latin left to right (plates.json note)', () => {
    const arabic = parsePlateString('1234 د ب أ');
    const latin = parsePlateString('ABD-1234');
    expect(arabic).toEqual({ digits: '1234', left: 'ا', middle: 'ب', right: 'د' });
    expect(latin).toEqual(arabic);
    expect(formatPlate(arabic!)).toBe('1234 د ب ا');
  });
  it('property: format → parse round-trips', () => {
    fc.assert(
      fc.property(digits4, letter, letter, letter, (d, a, b, c) => {
        const p = { digits: d, left: a, middle: b, right: c };
        expect(parsePlateString(formatPlate(p))).toEqual(p);
      }),
    );
  });
  it('property: all-zero digits are always rejected whatever the letters', () => {
    fc.assert(fc.property(letter, letter, letter, (a, b, c) => normalizePlate({ digits: '0000', left: a, middle: b, right: c }) === null));
  });
  it('plateSchema: all plate fields filled, with keyed messages', () => {
    const r = plateSchema.safeParse({ digits: '12', left: 'ت', middle: '', right: 'ا' });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['digits', 'v.plateDigits'],
      ['left', 'v.plateLetter'],
      ['middle', 'v.plateLetter'],
    ]);
    expect(plateSchema.parse({ digits: '١٢٣٤', left: 'أ', middle: 'هـ', right: 'ي' })).toEqual({ digits: '1234', left: 'ا', middle: 'ه', right: 'ى' });
  });
  it('property: a plate survives the stored columns (plate_letters = left, middle, right)', () => {
    fc.assert(
      fc.property(letter, letter, letter, (left, middle, right) => {
        const p = normalizePlate({ digits: '4567', left, middle, right })!;
        expect(plateFromStored(p.digits, storedPlateLetters(p))).toEqual(p);
      }),
    );
    expect(storedPlateLetters({ left: 'ا', middle: 'ب', right: 'د' })).toBe('ابد');
    expect(formatPlate(plateFromStored('1234', 'ابد'))).toBe('1234 د ب ا');
  });
});
