import { bankOfIban, type PayoutAccount } from '@masar/shared';
import { AppError } from '../../lib/errors.ts';
import { ACCOUNT_TYPE } from '@masar/shared';
import type { CurrentUser } from '../auth/auth.types.ts';
import type { PayoutAccountRow } from './payouts.repository.ts';

/** Row → API shape, the bank named from the IBAN's code (packages/shared SAUDI_BANKS). */
export function toPayoutAccount(r: PayoutAccountRow): PayoutAccount {
  const bank = bankOfIban(r.iban);
  return { iban: r.iban, bankCode: bank.code, bankNameEn: bank.en, bankNameAr: bank.ar, holderName: r.holderName, updatedAt: r.updatedAt.toISOString() };
}

/** Payouts go to carriers and brokers (the side that is paid); a shipper is FORBIDDEN. */
export function requirePayee(user: CurrentUser): void {
  if (user.accountType !== ACCOUNT_TYPE.carrier && user.accountType !== ACCOUNT_TYPE.broker) throw new AppError('FORBIDDEN');
}
