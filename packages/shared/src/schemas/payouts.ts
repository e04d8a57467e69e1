import { z } from 'zod';
import { saudiIban } from '../rules/iban.ts';

/** PUT /payoutAccount (issue 50): the carrier's Saudi IBAN for payouts and the account holder's name. */
export const payoutAccountBody = z.object({
  iban: saudiIban,
  holderName: z.string({ error: 'v.holderName' }).trim().min(2, 'v.holderName').max(100, 'v.holderName'),
});
export type PayoutAccountBody = z.input<typeof payoutAccountBody>;

/** GET /payoutAccount: the IBAN (electronic form), its bank from the code (en, ar; null when unknown). */
export const payoutAccountSchema = z.object({
  iban: z.string(),
  bankCode: z.string(),
  bankNameEn: z.string().nullable(),
  bankNameAr: z.string().nullable(),
  holderName: z.string(),
  updatedAt: z.string(),
});
export type PayoutAccount = z.infer<typeof payoutAccountSchema>;
