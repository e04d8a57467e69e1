import type { Invoice } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../billing.repository.ts';
import { invoiceView } from '../billing.shared.ts';
import type { BillingDeps } from '../deps.ts';

export type ListInvoicesDeps = Pick<BillingDeps, 'db'>;

/** The account's VAT invoices, newest first (a page). */
export async function listInvoices(deps: ListInvoicesDeps, user: CurrentUser, limit: number, skip: number): Promise<Invoice[]> {
  return (await repo.listInvoices(deps.db, user.id, limit, skip)).map(invoiceView);
}
