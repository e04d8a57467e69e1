import { z } from 'zod';
import { isMoneyString, normalizeMoney, toHalalas } from './money.ts';

// The zod schemas of money, apart from money.ts's arithmetic so that a screen that only formats
// or compares prices (LoadCard on the home page) does not pull zod into its initial JS (the home
// page's 200 KB budget, tools/bundle/budget.test.ts).

/**
 * zod schema of a price in SAR as the API takes it: a decimal string ("1500", "1500.5",
 * "1500.50"), > 0 and ≤ 9,999,999,999.99, normalized to two decimals. Message keys from the
 * shared catalogue: v.pricePositive, v.priceFormat.
 */
export const moneySar = z
  .string({ error: 'v.pricePositive' })
  .trim()
  .refine((s) => s !== '', { message: 'v.pricePositive', abort: true })
  .refine(isMoneyString, { message: 'v.priceFormat', abort: true })
  .transform(normalizeMoney)
  .refine((s) => toHalalas(s) > 0, 'v.pricePositive');

/** A SAR amount as the API returns it: a decimal string with two decimals. */
export const moneySarOut = z.string().regex(/^-?\d+\.\d{2}$/);
