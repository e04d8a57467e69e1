import { cardBrand, type cardAddBody, type SavedCard } from '@masar/shared';
import type { z } from 'zod';
import { PaymentGatewayError } from '../../../gateways/payments/payments.ts';
import { AppError } from '../../../lib/errors.ts';
import { newId } from '../../../lib/ids.ts';
import { lockAccountCap } from '../../../lib/locks.ts';
import { replayNext } from '../../../lib/tx-journal.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../billing.repository.ts';
import { cardView, MAX_CARDS } from '../billing.shared.ts';
import type { BillingDeps } from '../deps.ts';

export type AddCardDeps = Pick<BillingDeps, 'db' | 'payments'>;

/** Tokenize at the gateway and keep token, brand, last 4 and expiry. The number never reaches the database. */
export async function addCard(deps: AddCardDeps, user: CurrentUser, body: z.output<typeof cardAddBody>): Promise<SavedCard> {
  const { db, payments } = deps;
  // a same-key retry after a crash that committed the card answers that card (no second token)
  const replayed = replayNext();
  if (replayed) return replayed.value as SavedCard;
  // a cheap early refusal before the gateway call; the cap itself holds under the lock below
  if ((await repo.countCards(db, user.id)) >= MAX_CARDS) throw new AppError('LIMIT_REACHED');
  let token: string;
  try {
    ({ token } = await payments.tokenize({
      number: body.number,
      expMonth: body.expMonth,
      expYear: body.expYear,
      cvc: body.cvc,
      holderName: body.holderName,
    }));
  } catch (err) {
    if (err instanceof PaymentGatewayError) throw new AppError('PAYMENT_GATEWAY_ERROR');
    throw err;
  }
  return db.transaction(async (tx) => {
    await lockAccountCap(tx, 'cards', user.id);
    const saved = await repo.countCards(tx, user.id);
    if (saved >= MAX_CARDS) throw new AppError('LIMIT_REACHED');
    const first = saved === 0;
    const card = await repo.insertCard(tx, {
      id: newId(),
      userId: user.id,
      gateway: payments.name,
      token,
      brand: cardBrand(body.number)!,
      last4: body.number.slice(-4),
      expMonth: body.expMonth,
      expYear: body.expYear,
      holderName: body.holderName,
      isDefault: first,
    });
    if (body.makeDefault && !first) await repo.setDefaultCard(tx, user.id, card.id);
    return cardView({ ...card, isDefault: first || Boolean(body.makeDefault) });
  });
}
