import { fromHalalas, toHalalas, vatHalalas, type PromoQuote } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import { assertPlanFor, promoDiscount } from '../billing.shared.ts';
import type { BillingDeps } from '../deps.ts';

export type QuotePromoDeps = Pick<BillingDeps, 'db'>;

/** What a promo code would take off a plan (redeems nothing). */
export async function quotePromo(deps: QuotePromoDeps, user: CurrentUser, code: string, planCode: string): Promise<PromoQuote> {
  const plan = assertPlanFor(user, planCode);
  const discount = await promoDiscount(deps.db, user.id, code, plan);
  const price = toHalalas(plan.priceSar);
  const amount = price - discount;
  const vat = vatHalalas(amount);
  return {
    code,
    planCode,
    priceSar: fromHalalas(price),
    discountSar: fromHalalas(discount),
    amountSar: fromHalalas(amount),
    vatSar: fromHalalas(vat),
    totalSar: fromHalalas(amount + vat),
  };
}
