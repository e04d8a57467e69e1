import type { PaymentIntent } from '@masar/shared';
import type { ChargeResult } from '../../../gateways/payments/payments.ts';
import { PaymentGatewayError } from '../../../gateways/payments/payments.ts';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../billing.repository.ts';
import type { BillingDeps } from '../deps.ts';
import { outcome, settle, toIntentView } from '../settlement.ts';

export type ConfirmIntentDeps = Pick<BillingDeps, 'db' | 'payments' | 'seller'>;

/** After 3-D Secure: ask the gateway how the payment ended and apply it. */
export async function confirmIntent(deps: ConfirmIntentDeps, user: CurrentUser, id: string, sandboxOutcome?: 'approve' | 'decline'): Promise<PaymentIntent> {
  const intent = await repo.findIntent(deps.db, user.id, id);
  if (!intent) throw new AppError('NOT_FOUND');
  if (intent.status === 'succeeded') return toIntentView(deps, intent);
  if (intent.status !== 'requires_action' || !intent.gatewayRef) throw new AppError('INTENT_NOT_PENDING');
  let result: ChargeResult;
  try {
    result = await deps.payments.verify(intent.gatewayRef, sandboxOutcome);
  } catch (err) {
    if (err instanceof PaymentGatewayError) throw new AppError('PAYMENT_GATEWAY_ERROR');
    throw err;
  }
  return toIntentView(deps, outcome(await settle(deps, intent.id, result)));
}
