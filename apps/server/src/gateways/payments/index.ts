import type { Config } from '../../config.ts';
import { createMoyasarPayments } from './moyasar.ts';
import type { PaymentGateway } from './payments.ts';
import { createSandboxPayments } from './sandbox.ts';

/** The log message of a held charge answer (crash tests wait for it in a child server's log). */
export const PAYMENT_CHARGE_HELD = 'payments sandbox: charge asked, its answer held';

/**
 * The payment gateway chosen by PAYMENT_GATEWAY: `sandbox` (default, test cards) or `moyasar`.
 * `log`: the sandbox says when it holds a charge's answer (PAYMENT_SANDBOX_DELAY_MS).
 */
export function createPaymentGateway(
  config: Pick<Config, 'PAYMENT_GATEWAY' | 'PAYMENT_API_URL' | 'PAYMENT_SECRET_KEY' | 'PAYMENT_PUBLISHABLE_KEY'> &
    Partial<Pick<Config, 'PAYMENT_SANDBOX_DELAY_MS'>>,
  log?: (m: string) => void,
): PaymentGateway {
  if (config.PAYMENT_GATEWAY === 'moyasar') {
    if (!config.PAYMENT_SECRET_KEY || !config.PAYMENT_PUBLISHABLE_KEY) {
      throw new Error('PAYMENT_GATEWAY=moyasar needs PAYMENT_SECRET_KEY and PAYMENT_PUBLISHABLE_KEY');
    }
    return createMoyasarPayments({ apiUrl: config.PAYMENT_API_URL, secretKey: config.PAYMENT_SECRET_KEY, publishableKey: config.PAYMENT_PUBLISHABLE_KEY });
  }
  return createSandboxPayments({ chargeDelayMs: config.PAYMENT_SANDBOX_DELAY_MS, onChargeHeld: log ? () => log(PAYMENT_CHARGE_HELD) : undefined });
}
