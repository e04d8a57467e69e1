import { z } from 'zod';

/**
 * Saudi IBANs (issue 50 payouts). Shape: `SA` + 2 check digits + 2-digit bank code + 18 account
 * characters = 24 (ISO 13616; SAMA's Saudi IBAN format). Check digits: ISO 7064 MOD 97-10 — the
 * first four characters moved to the end, letters as 10…35, the number mod 97 must be 1.
 *
 * Bank codes → names: the bank identifiers SAMA assigned for the Saudi IBAN (characters 5–6), as
 * published by SAMA and the banks' own IBAN pages, cross-checked 2026-12-08 against several public
 * Saudi IBAN checkers. Codes 40 (SAMBA, merged into the Saudi National Bank in 2021) and 50
 * (Alawwal, merged into SABB — now SAB — in 2019) still appear on older accounts. A code not in
 * this table is still a valid IBAN (a branch of a foreign bank): its bank name is null.
 */
export const SAUDI_BANKS: Record<string, { en: string; ar: string }> = {
  '05': { en: 'Alinma Bank', ar: 'مصرف الإنماء' },
  '10': { en: 'The Saudi National Bank', ar: 'البنك الأهلي السعودي' },
  '15': { en: 'Bank AlBilad', ar: 'بنك البلاد' },
  '20': { en: 'Riyad Bank', ar: 'بنك الرياض' },
  '30': { en: 'Arab National Bank', ar: 'البنك العربي الوطني' },
  '40': { en: 'Samba Financial Group (now The Saudi National Bank)', ar: 'مجموعة سامبا المالية (البنك الأهلي السعودي حالياً)' },
  '45': { en: 'Saudi Awwal Bank (SAB)', ar: 'البنك السعودي الأول' },
  '50': { en: 'Alawwal Bank (now Saudi Awwal Bank)', ar: 'البنك الأول (البنك السعودي الأول حالياً)' },
  '55': { en: 'Banque Saudi Fransi', ar: 'البنك السعودي الفرنسي' },
  '60': { en: 'Bank AlJazira', ar: 'بنك الجزيرة' },
  '65': { en: 'The Saudi Investment Bank', ar: 'البنك السعودي للاستثمار' },
  '80': { en: 'Al Rajhi Bank', ar: 'مصرف الراجحي' },
  '90': { en: 'Gulf International Bank', ar: 'بنك الخليج الدولي' },
  '95': { en: 'Emirates NBD', ar: 'بنك الإمارات دبي الوطني' },
};

/** An IBAN as typed (spaces, lower case) → its electronic form: upper case, no spaces. */
export const normalizeIban = (s: string): string => s.replace(/[\s-]/g, '').toUpperCase();

/** ISO 7064 MOD 97-10 over an IBAN in electronic form (letters and digits only). */
export function ibanChecksumValid(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const c of moved) {
    const v = parseInt(c, 36);
    if (Number.isNaN(v)) return false;
    for (const d of String(v)) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

/** What is wrong with a Saudi IBAN (electronic form), or null: `country` (not SA), `format` (not SA + 22), `check` (MOD 97). */
export function saudiIbanProblem(iban: string): 'country' | 'format' | 'check' | null {
  if (!/^[A-Z]{2}/.test(iban) || !iban.startsWith('SA')) return 'country';
  if (!/^SA\d{4}[0-9A-Z]{18}$/.test(iban)) return 'format';
  return ibanChecksumValid(iban) ? null : 'check';
}

/** The bank of a Saudi IBAN: its 2-digit code and names (null when the code is not in SAUDI_BANKS). */
export function bankOfIban(iban: string): { code: string; en: string | null; ar: string | null } {
  const code = iban.slice(4, 6);
  const b = SAUDI_BANKS[code];
  return { code, en: b?.en ?? null, ar: b?.ar ?? null };
}

/** A Saudi IBAN field: normalised, then refused with a localized message key (v.ibanCountry, v.ibanFormat, v.ibanCheck). */
export const saudiIban = z
  .string({ error: 'v.ibanFormat' })
  .transform(normalizeIban)
  .superRefine((iban, ctx) => {
    const p = saudiIbanProblem(iban);
    if (p) ctx.addIssue({ code: 'custom', message: p === 'country' ? 'v.ibanCountry' : p === 'check' ? 'v.ibanCheck' : 'v.ibanFormat' });
  });
