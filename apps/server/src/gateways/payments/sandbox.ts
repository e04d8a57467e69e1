import { randomBytes } from 'node:crypto';
import type { CardDetails, ChargeRequest, ChargeResult, PaymentGateway } from './payments.ts';

/**
 * Test cards of the sandbox gateway (PAYMENT_GATEWAY=sandbox, the default). Any other valid card
 * number succeeds. Documented in the README and on the checkout page in sandbox mode.
 */
export const SANDBOX_CARDS = {
  /** Declined by the issuer. */
  declined: '4000000000000002',
  /** Declined: not enough funds. */
  insufficientFunds: '4000000000009995',
  /** Needs 3-D Secure: the payer approves or declines on the sandbox's bank page. */
  threeDSecure: '4000000000003220',
} as const;

type Behaviour = 'ok' | 'declined' | 'funds' | '3ds';

const behaviourOf = (number: string): Behaviour =>
  number === SANDBOX_CARDS.declined ? 'declined' : number === SANDBOX_CARDS.insufficientFunds ? 'funds' : number === SANDBOX_CARDS.threeDSecure ? '3ds' : 'ok';

/**
 * A sandbox acquirer: no network, no state. The card's test behaviour is carried in its token
 * (`tok_sbx_<behaviour>_<random>`), a 3-D Secure payment's in its reference, so any instance
 * answers the same. Charges of the same intent get the same reference and the same answer
 * (idempotent by intent id): asking again after a lost answer is how a crashed checkout is
 * reconciled (issue 22).
 */
export function createSandboxPayments(
  opts: { chargeDelayMs?: number; /** Told when a charge's answer starts being held. */ onChargeHeld?: () => void } = {},
): PaymentGateway {
  const chargeDelayMs = opts.chargeDelayMs ?? 0;
  return {
    name: 'sandbox',
    async tokenize(card: CardDetails) {
      return { token: `tok_sbx_${behaviourOf(card.number)}_${randomBytes(8).toString('hex')}` };
    },
    async charge(req: ChargeRequest): Promise<ChargeResult> {
      // PAYMENT_SANDBOX_DELAY_MS (crash tests): the answer is late
      if (chargeDelayMs > 0) {
        opts.onChargeHeld?.();
        await new Promise((r) => setTimeout(r, chargeDelayMs));
      }
      const behaviour = /^tok_sbx_(ok|declined|funds|3ds)_/.exec(req.token)?.[1] as Behaviour | undefined;
      const ref = `pay_sbx_${req.intentId}`;
      if (!behaviour) return { status: 'failed', ref: null, code: 'invalid_token' };
      if (behaviour === 'declined') return { status: 'failed', ref, code: 'card_declined' };
      if (behaviour === 'funds') return { status: 'failed', ref, code: 'insufficient_funds' };
      if (behaviour === '3ds') return { status: 'requires_action', ref: `pay_sbx_3ds_${req.intentId}`, actionUrl: req.callbackUrl };
      return { status: 'succeeded', ref };
    },
    async verify(ref, sandboxOutcome) {
      if (!ref.startsWith('pay_sbx_3ds_'))
        return ref.startsWith('pay_sbx_') ? { status: 'succeeded', ref } : { status: 'failed', ref, code: 'unknown_payment' };
      if (sandboxOutcome === 'approve') return { status: 'succeeded', ref };
      if (sandboxOutcome === 'decline') return { status: 'failed', ref, code: '3ds_failed' };
      return { status: 'requires_action', ref, actionUrl: '' };
    },
  };
}
