import type { CardDetails, ChargeRequest, ChargeResult, PaymentGateway } from './payments.ts';
import { PaymentGatewayError } from './payments.ts';

/**
 * A Saudi acquirer's REST API (PAYMENT_GATEWAY=moyasar): mada, Visa, Mastercard, Amex; amounts in
 * halalas; HTTP Basic with the secret key for payments, the publishable key for tokens.
 * - tokenize: POST /tokens {name, number, cvc, month, year, save_only: true} → {id}
 * - charge: POST /payments {amount, currency: SAR, description, callback_url, source: {type:
 *   'token', token}, metadata: {intent_id}} → {id, status: paid | failed | initiated,
 *   source: {transaction_url, message}}; `initiated` with a transaction_url means 3-D Secure.
 * - verify: GET /payments/:id — the status is read from the acquirer, never from the redirect.
 * In production the browser should tokenize with the publishable key directly (the acquirer's
 * form), so the card number never reaches Masar's servers; this adapter keeps the same shape.
 */
export function createMoyasarPayments(opts: { apiUrl: string; secretKey: string; publishableKey: string; fetch?: typeof fetch }): PaymentGateway {
  const f = opts.fetch ?? fetch;
  const auth = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
  async function call(method: string, path: string, key: string, body?: unknown): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await f(`${opts.apiUrl.replace(/\/$/, '')}${path}`, {
        method,
        headers: { authorization: auth(key), 'content-type': 'application/json', accept: 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
    } catch (err) {
      throw new PaymentGatewayError(`payment gateway unreachable: ${(err as Error).message}`);
    }
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.status >= 500) throw new PaymentGatewayError(`payment gateway answered ${res.status}`);
    return { ...json, httpStatus: res.status };
  }
  const toResult = (p: Record<string, unknown>): ChargeResult => {
    const source = (p.source ?? {}) as { transaction_url?: string; message?: string; response_code?: string };
    const type = typeof p.type === 'string' ? p.type : undefined;
    const ref = typeof p.id === 'string' ? p.id : null;
    if (p.status === 'paid' || p.status === 'captured') return { status: 'succeeded', ref: ref! };
    if (p.status === 'initiated' && source.transaction_url && ref) return { status: 'requires_action', ref, actionUrl: source.transaction_url };
    return { status: 'failed', ref, code: source.response_code ?? source.message ?? type ?? 'declined' };
  };
  return {
    name: 'moyasar',
    async tokenize(card: CardDetails) {
      const r = await call('POST', '/tokens', opts.publishableKey, {
        name: card.holderName,
        number: card.number,
        cvc: card.cvc,
        month: String(card.expMonth).padStart(2, '0'),
        year: String(card.expYear),
        save_only: true,
      });
      if (typeof r.id !== 'string')
        throw new PaymentGatewayError(`tokenization refused (${String(r.httpStatus)}): ${typeof r.message === 'string' ? r.message : ''}`);
      return { token: r.id };
    },
    async charge(req: ChargeRequest) {
      const r = await call('POST', '/payments', opts.secretKey, {
        amount: req.amountHalalas,
        currency: 'SAR',
        description: req.description,
        callback_url: req.callbackUrl,
        source: { type: 'token', token: req.token },
        metadata: { intent_id: req.intentId },
      });
      return toResult(r);
    },
    async verify(ref: string) {
      return toResult(await call('GET', `/payments/${encodeURIComponent(ref)}`, opts.secretKey));
    },
  };
}
