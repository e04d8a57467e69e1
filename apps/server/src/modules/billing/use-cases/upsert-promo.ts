import { toHalalas } from '@masar/shared';
import * as repo from '../billing.repository.ts';
import type { BillingDeps } from '../deps.ts';

export type UpsertPromoDeps = Pick<BillingDeps, 'db'>;

export interface PromoIn {
  code: string;
  kind: 'percent' | 'fixed';
  value: string;
  expiresAt?: Date | null;
  maxRedemptions?: number | null;
  planCodes?: string[] | null;
}

/** Create or update a promo code (admin CLI, demo seed). `value`: percent (1–100) or SAR off. */
export async function upsertPromo(deps: UpsertPromoDeps, p: PromoIn): Promise<void> {
  const value = p.kind === 'percent' ? Number(p.value) : toHalalas(p.value);
  if (!(value > 0) || (p.kind === 'percent' && (!Number.isInteger(value) || value > 100))) throw new RangeError('promo value out of range');
  await repo.upsertPromo(deps.db, {
    code: p.code.toUpperCase(),
    kind: p.kind,
    value,
    expiresAt: p.expiresAt ?? null,
    maxRedemptions: p.maxRedemptions ?? null,
    planCodes: p.planCodes ?? null,
    active: true,
  });
}
