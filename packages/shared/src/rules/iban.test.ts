import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bankOfIban, ibanChecksumValid, saudiIban } from './iban.ts';
import { payoutAccountBody } from '../schemas/payouts.ts';

const problem = (s: string) => {
  const r = saudiIban.safeParse(s);
  return r.success ? null : r.error.issues[0].message;
};

describe('Saudi IBAN (issue 50)', () => {
  it('accepts a valid one (spaces and lower case allowed) and names its bank', () => {
    expect(saudiIban.parse('sa03 8000 0000 6080 1016 7519')).toBe('SA0380000000608010167519');
    expect(bankOfIban('SA0380000000608010167519')).toEqual({ code: '80', en: 'Al Rajhi Bank', ar: 'مصرف الراجحي' });
    expect(bankOfIban('SA2305000068201234567000')).toMatchObject({ code: '05', en: 'Alinma Bank' });
  });

  it('refuses bad check digits, the wrong country and the wrong length, each with its own message', () => {
    expect(problem('SA0480000000608010167519')).toBe('v.ibanCheck');
    expect(problem('SA0380000000608010167591')).toBe('v.ibanCheck'); // two digits swapped
    expect(problem('AE070331234567890123456')).toBe('v.ibanCountry'); // a valid UAE IBAN
    expect(problem('GB82WEST12345698765432')).toBe('v.ibanCountry');
    expect(problem('SA03800000006080101675')).toBe('v.ibanFormat');
    expect(problem('SA038000000060801016751X9')).toBe('v.ibanFormat');
    expect(payoutAccountBody.safeParse({ iban: 'SA0380000000608010167519', holderName: 'A' }).error?.issues[0].message).toBe('v.holderName');
  });

  it('MOD 97 catches every single changed digit of the account part', () => {
    fc.assert(
      fc.property(fc.integer({ min: 6, max: 23 }), fc.integer({ min: 1, max: 9 }), (i, d) => {
        const good = 'SA0380000000608010167519';
        const bad = good.slice(0, i) + String((Number(good[i]) + d) % 10) + good.slice(i + 1);
        expect(ibanChecksumValid(bad)).toBe(false);
      }),
    );
  });
});
