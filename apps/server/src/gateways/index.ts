import type { Config } from '../config.ts';
import { createGreatCircleRouting, type RoutingGateway } from './routing/routing.ts';
import { createSandboxSms } from './sms/sandbox.ts';
import type { SmsGateway } from './sms/sms.ts';

export interface Gateways {
  sms: SmsGateway;
  routing: RoutingGateway;
}

/** Choose each gateway's implementation from the configuration (sandbox by default). */
export function createGateways(config: Config): Gateways {
  if (config.SMS_GATEWAY !== 'sandbox') throw new Error(`SMS_GATEWAY=${config.SMS_GATEWAY} is not implemented yet; use sandbox`);
  return {
    sms: createSandboxSms((m) => (config.LOG_LEVEL === 'silent' ? undefined : console.log(m))),
    routing: createGreatCircleRouting(config.ROAD_FACTOR),
  };
}
