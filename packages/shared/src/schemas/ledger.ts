import { z } from 'zod';

/**
 * The ledger's contract (issue 50 "A ledger"): double-entry, append-only, amounts in integer
 * halalas (1 SAR = 100 halalas), never floats. A journal is one movement caused by one fact
 * (`factKind` + `factId`, posted at most once); its postings move amounts between accounts and
 * sum to zero. An account is an owner (an account's user id, or `null` for the platform) and a
 * kind. A posting's amount is what it adds to its account's balance.
 */
export const LEDGER_ACCOUNTS = [
  /** Money the owner holds at Masar, free to spend or to be paid out. */
  'wallet',
  /** A shipper's money held for a protected load until it is released or refunded. */
  'escrow_held',
  /** What the platform owes the owner (a carrier's released freight before payout). */
  'payable',
  /** What the owner owes the platform (accepted detention not yet funded). */
  'receivable',
  /** The platform's fees (platform owner only). */
  'platform_fees',
  /** VAT collected (15%, ZATCA). */
  'vat',
  /** Platform: money that came in from outside the ledger (the billing wallet, a gateway). */
  'funding',
  /** Platform: money that left to a bank (payouts). */
  'payouts',
] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

/** One posting: `amount` integer halalas, non-zero, what it adds to the account's balance. */
export const ledgerPostingSchema = z.object({
  owner: z.uuid().nullable(),
  account: z.enum(LEDGER_ACCOUNTS),
  amount: z
    .number()
    .int()
    .refine((n) => n !== 0 && Math.abs(n) <= Number.MAX_SAFE_INTEGER, 'a non-zero whole number of halalas'),
});
export type LedgerPosting = z.infer<typeof ledgerPostingSchema>;

/**
 * A journal as the server posts it: the fact that caused it, a memo, ≥ 2 postings summing to 0.
 * Errors: a zod issue "postings must sum to zero" / "at least two postings".
 */
export const ledgerJournalInputSchema = z
  .object({
    factKind: z.string().regex(/^[a-z][a-z_.]*$/),
    factId: z.string().min(1).max(200),
    memo: z.string().max(500).default(''),
    postings: z.array(ledgerPostingSchema).min(2, 'at least two postings'),
  })
  .refine((j) => j.postings.reduce((s, p) => s + p.amount, 0) === 0, { message: 'postings must sum to zero', path: ['postings'] });
export type LedgerJournalInput = z.input<typeof ledgerJournalInputSchema>;

/** A balance as the API shows it: halalas (integer) and SAR (decimal string). */
export const ledgerBalanceSchema = z.object({
  account: z.enum(LEDGER_ACCOUNTS),
  balanceHalalas: z.number().int(),
  balanceSar: z.string(),
});
export const ledgerBalancesSchema = z.object({ items: z.array(ledgerBalanceSchema) });
export type LedgerBalances = z.infer<typeof ledgerBalancesSchema>;
