import cardValidator from 'card-validator';
import { z } from 'zod';
import { ACCOUNT_TYPE, type AccountType } from '../constants.ts';
import { fromHalalas, toHalalas, vatHalalas } from '../money.ts';
import { moneySar, moneySarOut } from '../money-schemas.ts';

/**
 * Plans, checkout, cards, promo codes, wallet and invoices (issue 8; spec §1 pricing, §2 checkout
 * and billing, §3 plan/promo/subscription, §6 plan gating, §7 /subscription… paths). Prices are
 * SAR before VAT as decimal strings; VAT is Saudi VAT 15% (ZATCA), rounded half up to the halala.
 */

/** Payment purposes (spec §3): order 1, wallet recharge 2, membership 3, subscription 4. */
export const PAYMENT_PURPOSE = { order: 1, walletRecharge: 2, membershipPurchase: 3, subscriptionPurchase: 4 } as const;
export type PaymentPurpose = (typeof PAYMENT_PURPOSE)[keyof typeof PAYMENT_PURPOSE];

/** Free trial of a plan, once per account (spec §2 "10-day free trial"). */
export const TRIAL_DAYS = 10;

/** Who a plan is for: shippers post and accept; carriers book and bid; TMS users (brokers) do both. */
export type PlanAudience = 'shipper' | 'carrier' | 'tms';
export const AUDIENCE_OF: Record<AccountType, PlanAudience> = {
  [ACCOUNT_TYPE.shipper]: 'shipper',
  [ACCOUNT_TYPE.carrier]: 'carrier',
  [ACCOUNT_TYPE.broker]: 'tms',
};

export interface Plan {
  code: string;
  audience: PlanAudience;
  /** Length of one period in months (1 monthly, 12 yearly). */
  months: 1 | 12;
  /** Price of one period before VAT, SAR. */
  priceSar: string;
  name: { en: string; ar: string };
  /** Feature keys shown on the pricing page (web i18n `billing:feature.<key>`). */
  features: string[];
}

const plan = (code: string, audience: PlanAudience, months: 1 | 12, priceSar: string, en: string, ar: string, features: string[]): Plan => ({
  code,
  audience,
  months,
  priceSar,
  name: { en, ar },
  features,
});

const SHIPPER = ['postLoads', 'acceptOffers', 'vendors', 'ownVehicles', 'csv', 'bayan'];
const CARRIER = ['searchLoads', 'bid', 'fleet', 'trustedDrivers', 'csv', 'bayan'];
const TMS = ['postLoads', 'searchLoads', 'bid', 'fleet', 'vendors', 'csv', 'api', 'bayan'];

/**
 * The plan catalogue. Yearly plans cost ten months. Kept in code (not a table): a price change
 * is a reviewed change; a paid subscription keeps the plan name and price it was bought at.
 */
export const PLANS: readonly Plan[] = [
  plan('shipper-monthly', 'shipper', 1, '299.00', 'Shipper — monthly', 'الشاحن — شهري', SHIPPER),
  plan('shipper-yearly', 'shipper', 12, '2990.00', 'Shipper — yearly', 'الشاحن — سنوي', SHIPPER),
  plan('carrier-monthly', 'carrier', 1, '199.00', 'Carrier — monthly', 'الناقل — شهري', CARRIER),
  plan('carrier-yearly', 'carrier', 12, '1990.00', 'Carrier — yearly', 'الناقل — سنوي', CARRIER),
  plan('tms-monthly', 'tms', 1, '499.00', 'TMS — monthly', 'نظام إدارة النقل — شهري', TMS),
  plan('tms-yearly', 'tms', 12, '4990.00', 'TMS — yearly', 'نظام إدارة النقل — سنوي', TMS),
];
export const PLAN_CODES = PLANS.map((p) => p.code) as [string, ...string[]];
export const planByCode = (code: string): Plan | undefined => PLANS.find((p) => p.code === code);

/** A plan as GET /plans answers it, with VAT and total worked out. */
export const planSchema = z.object({
  code: z.string(),
  audience: z.enum(['shipper', 'carrier', 'tms']),
  months: z.number().int(),
  name: z.string(),
  priceSar: moneySarOut,
  vatSar: moneySarOut,
  totalSar: moneySarOut,
  features: z.array(z.string()),
  trialDays: z.number().int(),
});
export type PlanView = z.infer<typeof planSchema>;

/** Amount, its VAT and the total, exact to the halala. */
export function withVat(amountSar: string): { amountSar: string; vatSar: string; totalSar: string } {
  const h = toHalalas(amountSar);
  const v = vatHalalas(h);
  return { amountSar: fromHalalas(h), vatSar: fromHalalas(v), totalSar: fromHalalas(h + v) };
}

// ---------------------------------------------------------------------------------------------
// Cards

/** Brands accepted: the spec's (§3) and mada, the Saudi debit network. */
export const CARD_BRANDS = ['mada', 'visa', 'mastercard', 'american-express', 'diners-club', 'discover', 'jcb', 'unionpay'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/**
 * mada BIN prefixes (the first six digits of mada cards, as published by Saudi acquirers for
 * brand routing). A mada card is co-badged Visa or Mastercard; it is charged as mada.
 */
export const MADA_BINS = [
  '440647',
  '440795',
  '446404',
  '457865',
  '968208',
  '457997',
  '474491',
  '636120',
  '417633',
  '468540',
  '468541',
  '468542',
  '468543',
  '968201',
  '446393',
  '588847',
  '400861',
  '409201',
  '458456',
  '484783',
  '968205',
  '462220',
  '455708',
  '588848',
  '455036',
  '968203',
  '486094',
  '486095',
  '486096',
  '504300',
  '440533',
  '489317',
  '489318',
  '489319',
  '445564',
  '968211',
  '401757',
  '410685',
  '432328',
  '428671',
  '428672',
  '428673',
  '968206',
  '446672',
  '543357',
  '434107',
  '431361',
  '604906',
  '521076',
  '588850',
  '968202',
  '535825',
  '529415',
  '543085',
  '524130',
  '554180',
  '549760',
  '588849',
  '968209',
  '524514',
  '529741',
  '537767',
  '535989',
  '536023',
  '513213',
  '585265',
  '588983',
  '588982',
  '589005',
  '508160',
  '531095',
  '530906',
  '532013',
  '605141',
  '968204',
  '422817',
  '422818',
  '422819',
  '428331',
  '483010',
  '483011',
  '483012',
  '589206',
  '968207',
  '419593',
  '439954',
  '407197',
  '407395',
  '412565',
  '406136',
  '506968',
  '520058',
  '530060',
  '531196',
  '588845',
] as const;

/**
 * The brand of a card number (digits only): mada by BIN, otherwise card-validator's detection;
 * null when unknown or not accepted.
 */
export function cardBrand(number: string): CardBrand | null {
  if (MADA_BINS.some((b) => number.startsWith(b))) return 'mada';
  const type = cardValidator.number(number).card?.type;
  return (CARD_BRANDS as readonly string[]).includes(type ?? '') ? (type as CardBrand) : null;
}

const digitsOnly = (s: string) => s.replace(/[\s-]/g, '');

/**
 * POST /paymentMethod: a card to save. The number and CVC go to the payment gateway to be
 * tokenized and are never stored or logged; Masar keeps token, brand, last 4 and expiry only.
 * Luhn, brand, length and expiry by card-validator. Message keys: v.cardNumber, v.cardExpiry,
 * v.cardCvc, v.required.
 */
export const cardAddBody = z
  .object({
    number: z
      .string()
      .transform(digitsOnly)
      .refine((n) => /^\d{12,19}$/.test(n) && cardValidator.number(n).isValid && cardBrand(n) !== null, 'v.cardNumber'),
    expMonth: z.number().int().min(1, 'v.cardExpiry').max(12, 'v.cardExpiry'),
    /** Four digits, e.g. 2028. */
    expYear: z.number().int().min(2000, 'v.cardExpiry').max(2100, 'v.cardExpiry'),
    cvc: z.string().regex(/^\d{3,4}$/, 'v.cardCvc'),
    holderName: z.string().trim().min(2, 'v.required').max(100, 'v.textMax'),
    /** Use this card for renewals (the first card saved is the default anyway). */
    makeDefault: z.boolean().optional(),
  })
  .superRefine((c, ctx) => {
    const exp = cardValidator.expirationDate({ month: String(c.expMonth), year: String(c.expYear) });
    if (!exp.isValid) ctx.addIssue({ code: 'custom', path: ['expMonth'], message: 'v.cardExpiry' });
    const brand = cardBrand(c.number);
    const cvcLength = brand === 'american-express' ? 4 : 3;
    if (c.cvc.length !== cvcLength) ctx.addIssue({ code: 'custom', path: ['cvc'], message: 'v.cardCvc' });
  });
export type CardAddInput = z.input<typeof cardAddBody>;

export const savedCardSchema = z.object({
  id: z.uuid(),
  brand: z.enum(CARD_BRANDS),
  last4: z.string().regex(/^\d{4}$/),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  holderName: z.string(),
  isDefault: z.boolean(),
  createdAt: z.string(),
  /**
   * When the bank last declined a charge on this card (ISO 8601), null once a charge on it
   * succeeds. A declined card is never made the renewal card nor preselected at checkout; the
   * saved-cards page shows it as declined and offers to remove it (issue 22).
   */
  lastChargeFailedAt: z.string().nullable(),
  /** The acquirer's reason for that decline, e.g. card_declined, insufficient_funds, 3ds_failed. */
  lastChargeFailure: z.string().nullable(),
});
export type SavedCard = z.infer<typeof savedCardSchema>;

// ---------------------------------------------------------------------------------------------
// Promo codes

export const promoCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9_-]{3,32}$/, 'v.promoCode');

/** POST /promo/check: what a code would take off a plan's price (nothing is redeemed). */
export const promoCheckBody = z.object({ code: promoCode, planCode: z.enum(PLAN_CODES) });
export const promoQuoteSchema = z.object({
  code: z.string(),
  planCode: z.string(),
  priceSar: moneySarOut,
  discountSar: moneySarOut,
  amountSar: moneySarOut,
  vatSar: moneySarOut,
  totalSar: moneySarOut,
});
export type PromoQuote = z.infer<typeof promoQuoteSchema>;

// ---------------------------------------------------------------------------------------------
// Payment intents

/**
 * POST /subscription/createIntent (header Idempotency-Key required): pay for a plan (purpose 4
 * subscription, renewing; 3 membership, one period) or recharge the wallet (purpose 2) with a
 * saved card, or pay a plan from the wallet. Order payments (1) come with load payments.
 */
export const intentCreateBody = z.discriminatedUnion('purpose', [
  z.object({
    purpose: z.union([z.literal(PAYMENT_PURPOSE.subscriptionPurchase), z.literal(PAYMENT_PURPOSE.membershipPurchase)]),
    planCode: z.enum(PLAN_CODES),
    /** A saved card of mine; omit with `payWithWallet`. */
    cardId: z.uuid().optional(),
    payWithWallet: z.boolean().optional(),
    promoCode: promoCode.optional(),
  }),
  z.object({
    purpose: z.literal(PAYMENT_PURPOSE.walletRecharge),
    /** SAR to add, 10 to 50,000. */
    amountSar: moneySar.refine((s) => toHalalas(s) >= 1000 && toHalalas(s) <= 5_000_000, 'v.walletAmount'),
    cardId: z.uuid(),
  }),
]);
export type IntentCreateInput = z.input<typeof intentCreateBody>;

export const INTENT_STATUSES = ['processing', 'requires_action', 'succeeded', 'failed'] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

export const paymentIntentSchema = z.object({
  id: z.uuid(),
  purpose: z.number().int(),
  status: z.enum(INTENT_STATUSES),
  planCode: z.string().nullable(),
  amountSar: moneySarOut,
  discountSar: moneySarOut,
  vatSar: moneySarOut,
  totalSar: moneySarOut,
  /** Card brand and last 4, or null when paid from the wallet. */
  card: z.object({ brand: z.enum(CARD_BRANDS), last4: z.string() }).nullable(),
  /** With requires_action: where the payer confirms with their bank (3-D Secure). */
  actionUrl: z.string().nullable(),
  /** With failed: the gateway's reason code (e.g. card_declined, insufficient_funds). */
  failureCode: z.string().nullable(),
  invoiceId: z.uuid().nullable(),
  createdAt: z.string(),
});
export type PaymentIntent = z.infer<typeof paymentIntentSchema>;

/** POST /payments/intents/:id/confirm, after 3-D Secure. `outcome` is read by the sandbox gateway only. */
export const intentConfirmBody = z.object({ outcome: z.enum(['approve', 'decline']).optional() });

// ---------------------------------------------------------------------------------------------
// Subscriptions

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'cancelled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const subscriptionSchema = z.object({
  id: z.uuid(),
  planCode: z.string(),
  planName: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** True while it grants the plan (trialing, active, or cancelled but inside the paid period). */
  active: z.boolean(),
  trial: z.boolean(),
  startedAt: z.string(),
  /** End of the current period; null for a plan without end (demo accounts). */
  currentPeriodEnd: z.string().nullable(),
  /** It ends at currentPeriodEnd instead of renewing. */
  cancelAtPeriodEnd: z.boolean(),
  /** When it renews (null when it will not). */
  renewsAt: z.string().nullable(),
  priceSar: moneySarOut.nullable(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const trialStartBody = z.object({ planCode: z.enum(PLAN_CODES) });

// ---------------------------------------------------------------------------------------------
// Wallet and invoices

export const walletEntrySchema = z.object({
  id: z.uuid(),
  /** `escrow`: a protected load's funding; `escrow_refund`: its return (issue 50). */
  kind: z.enum(['recharge', 'payment', 'refund', 'escrow', 'escrow_refund']),
  /** Signed: + credit, − debit. */
  amountSar: moneySarOut,
  intentId: z.uuid().nullable(),
  createdAt: z.string(),
});
export const walletSchema = z.object({
  /** Sum of every entry (the ledger is the truth; no stored balance). */
  balanceSar: moneySarOut,
  entries: z.array(walletEntrySchema),
});
export type Wallet = z.infer<typeof walletSchema>;

export const invoiceSchema = z.object({
  id: z.uuid(),
  /** Sequential, e.g. INV-2026-000042. */
  number: z.string(),
  issuedAt: z.string(),
  seller: z.object({ nameEn: z.string(), nameAr: z.string(), vatNumber: z.string(), address: z.string() }),
  buyer: z.object({ name: z.string(), companyName: z.string(), phone: z.string() }),
  lines: z.array(
    z.object({
      description: z.object({ en: z.string(), ar: z.string() }),
      quantity: z.number().int(),
      unitPriceSar: moneySarOut,
      discountSar: moneySarOut,
      amountSar: moneySarOut,
      vatRatePercent: z.number(),
      vatSar: moneySarOut,
    }),
  ),
  subtotalSar: moneySarOut,
  vatSar: moneySarOut,
  totalSar: moneySarOut,
  /** ZATCA phase-1 QR payload: base64 of the TLV (seller, VAT number, time, total, VAT). */
  zatcaQr: z.string(),
  intentId: z.uuid(),
});
export type Invoice = z.infer<typeof invoiceSchema>;
