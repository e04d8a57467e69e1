import type { Config } from '../../config.ts';
import type { EmailGateway } from './email.ts';
import { createSandboxEmail } from './sandbox.ts';
import { createSmtpEmail } from './smtp.ts';

/**
 * The e-mail gateway chosen by EMAIL_GATEWAY: `sandbox` (default: keeps an outbox, logs only
 * recipient and subject) or `smtp` (nodemailer; needs SMTP_URL). Mail goes out from EMAIL_FROM.
 */
export function createEmailGateway(
  config: Pick<Config, 'EMAIL_GATEWAY' | 'SMTP_URL' | 'EMAIL_FROM' | 'LOG_LEVEL'>,
  log: (m: string) => void = console.log,
): EmailGateway {
  if (config.EMAIL_GATEWAY === 'smtp') return createSmtpEmail({ url: config.SMTP_URL, from: config.EMAIL_FROM });
  return createSandboxEmail(config.EMAIL_FROM, (m) => (config.LOG_LEVEL === 'silent' ? undefined : log(m)));
}
