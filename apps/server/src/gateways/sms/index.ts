import { join } from 'node:path';
import type { Config } from '../../config.ts';
import { createSandboxSms, SMS_SANDBOX_FILE } from './sandbox.ts';
import type { SmsGateway } from './sms.ts';
import { createUnifonicSms } from './unifonic.ts';

/**
 * The SMS gateway chosen by SMS_GATEWAY: `sandbox` (default: writes each message to
 * DATA_DIR/sms-sandbox.log — nothing when DATA_DIR is `memory://` — and keeps an outbox that
 * GET /api/v1/dev/outbox shows; the log says only who got an SMS) or `unifonic` (needs
 * SMS_API_KEY = the AppSid).
 */
export function createSmsGateway(
  config: Pick<Config, 'SMS_GATEWAY' | 'SMS_API_KEY' | 'SMS_SENDER_ID' | 'LOG_LEVEL'> & Partial<Pick<Config, 'DATA_DIR' | 'dataDir'>>,
  log: (m: string) => void = console.log,
): SmsGateway {
  if (config.SMS_GATEWAY === 'unifonic') {
    if (!config.SMS_API_KEY) throw new Error('SMS_GATEWAY=unifonic needs SMS_API_KEY (the Unifonic AppSid)');
    return createUnifonicSms({ appSid: config.SMS_API_KEY, senderId: config.SMS_SENDER_ID });
  }
  const file = config.dataDir && config.DATA_DIR !== 'memory://' ? join(config.dataDir, SMS_SANDBOX_FILE) : undefined;
  return createSandboxSms((m) => (config.LOG_LEVEL === 'silent' ? undefined : log(m)), file);
}
