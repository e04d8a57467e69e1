import type { Config } from '../../config.ts';
import { createSandboxSms } from './sandbox.ts';
import type { SmsGateway } from './sms.ts';
import { createUnifonicSms } from './unifonic.ts';

/**
 * The SMS gateway chosen by SMS_GATEWAY: `sandbox` (default: logs, keeps an outbox that
 * GET /api/v1/dev/outbox shows) or `unifonic` (needs SMS_API_KEY = the AppSid).
 */
export function createSmsGateway(
  config: Pick<Config, 'SMS_GATEWAY' | 'SMS_API_KEY' | 'SMS_SENDER_ID' | 'LOG_LEVEL'>,
  log: (m: string) => void = console.log,
): SmsGateway {
  if (config.SMS_GATEWAY === 'unifonic') {
    if (!config.SMS_API_KEY) throw new Error('SMS_GATEWAY=unifonic needs SMS_API_KEY (the Unifonic AppSid)');
    return createUnifonicSms({ appSid: config.SMS_API_KEY, senderId: config.SMS_SENDER_ID });
  }
  return createSandboxSms((m) => (config.LOG_LEVEL === 'silent' ? undefined : log(m)));
}
