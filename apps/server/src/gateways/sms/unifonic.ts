import type { SmsGateway } from './sms.ts';

export interface UnifonicOptions {
  /** Application id of the Unifonic account (SMS_API_KEY). */
  appSid: string;
  /** Registered sender name; Unifonic uses the account default when absent. */
  senderId?: string;
  baseUrl?: string;
  timeoutMs?: number;
  /** Injected for tests; the global fetch by default. */
  fetch?: typeof fetch;
}

interface UnifonicAnswer {
  success?: boolean | string;
  message?: string;
  errorCode?: string;
  data?: { MessageID?: number | string };
}

/**
 * Unifonic (Saudi SMS provider) adapter: POST {baseUrl}/rest/SMS/messages, form-encoded, with
 * AppSid, SenderID, Recipient (international digits without "+"), Body (UTF-8, Arabic OK) and
 * MessageType 3 ("services": required classification for KSA traffic; OTPs are services).
 * Source: docs.unifonic.com "Sending your first SMS via Unifonic API". Throws on any failure
 * (HTTP error, `success` false, timeout): the caller answers SMS_SEND_FAILED.
 */
export function createUnifonicSms(opts: UnifonicOptions): SmsGateway {
  const base = (opts.baseUrl ?? 'https://el.cloud.unifonic.com').replace(/\/$/, '');
  const doFetch = opts.fetch ?? fetch;
  return {
    name: 'unifonic',
    async send(to, body) {
      const form = new URLSearchParams({ AppSid: opts.appSid, Recipient: to.replace(/^\+/, ''), Body: body, MessageType: '3', responseType: 'JSON' });
      if (opts.senderId) form.set('SenderID', opts.senderId);
      const res = await doFetch(`${base}/rest/SMS/messages`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      });
      const answer = (await res.json().catch(() => ({}))) as UnifonicAnswer;
      const ok = res.ok && (answer.success === true || answer.success === 'true');
      if (!ok) throw new Error(`unifonic: HTTP ${res.status} ${answer.errorCode ?? ''} ${answer.message ?? ''}`.trim());
      return { id: String(answer.data?.MessageID ?? '') };
    },
  };
}
