import type { Invoice } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../billing.repository.ts';
import { invoiceView } from '../billing.shared.ts';
import type { BillingDeps } from '../deps.ts';

export type GetInvoiceDeps = Pick<BillingDeps, 'db'>;

/** One of the account's invoices. NOT_FOUND when it is not the account's. */
export async function getInvoice(deps: GetInvoiceDeps, user: CurrentUser, id: string): Promise<Invoice> {
  const r = await repo.findInvoice(deps.db, user.id, id);
  if (!r) throw new AppError('NOT_FOUND');
  return invoiceView(r);
}
