import type { Config } from '../config.ts';
import { createEmailGateway } from './email/index.ts';
import type { EmailGateway } from './email/email.ts';
import { createPaymentGateway } from './payments/index.ts';
import type { PaymentGateway } from './payments/payments.ts';
import { createGreatCircleRouting, type RoutingGateway } from './routing/routing.ts';
import { createSmsGateway } from './sms/index.ts';
import type { SmsGateway } from './sms/sms.ts';

export interface Gateways {
  sms: SmsGateway;
  routing: RoutingGateway;
  payments: PaymentGateway;
  email: EmailGateway;
}

/** Choose each gateway's implementation from the configuration (sandbox by default); `log` gets the sandboxes' one-line notes. */
export function createGateways(config: Config, log?: (m: string) => void): Gateways {
  return {
    sms: createSmsGateway(config, log),
    routing: createGreatCircleRouting(config.ROAD_FACTOR),
    payments: createPaymentGateway(config, log),
    email: createEmailGateway(config),
  };
}
