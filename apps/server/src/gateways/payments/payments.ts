/**
 * Payment gateway (issue 8; DESIGN §1 gateways): tokenizes cards and charges tokens in SAR
 * halalas. Card numbers and CVCs pass through `tokenize` only — Masar stores the token, brand,
 * last 4 and expiry (PCI DSS). `charge` is called with Masar's payment-intent id as its
 * idempotency key, so a retry after a lost answer never charges twice at the acquirer either.
 */
export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  holderName: string;
}

/** What a charge came to: paid, refused (with the acquirer's reason), or waiting for 3-D Secure. */
export type ChargeResult =
  { status: 'succeeded'; ref: string } | { status: 'failed'; ref: string | null; code: string } | { status: 'requires_action'; ref: string; actionUrl: string };

export interface ChargeRequest {
  token: string;
  amountHalalas: number;
  description: string;
  /** Masar's intent id: the acquirer's idempotency key and metadata. */
  intentId: string;
  /** Where the payer's browser returns after 3-D Secure. */
  callbackUrl: string;
}

export interface PaymentGateway {
  readonly name: string;
  tokenize(card: CardDetails): Promise<{ token: string }>;
  charge(req: ChargeRequest): Promise<ChargeResult>;
  /**
   * The final state of a payment after 3-D Secure, asked of the acquirer (a redirect alone
   * proves nothing). `sandboxOutcome` is read by the sandbox only: its 3-D Secure page's answer.
   */
  verify(ref: string, sandboxOutcome?: 'approve' | 'decline'): Promise<ChargeResult>;
}

/** The gateway could not be reached or answered something unexpected: nothing was charged for sure. */
export class PaymentGatewayError extends Error {}
