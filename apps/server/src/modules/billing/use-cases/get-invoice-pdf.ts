import type { CurrentUser } from '../../auth/auth.types.ts';
import type { BillingDeps } from '../deps.ts';
import { renderInvoicePdf } from '../invoice-pdf.ts';
import { getInvoice } from './get-invoice.ts';

export type GetInvoicePdfDeps = Pick<BillingDeps, 'db'>;

/** The invoice as a bilingual PDF (A4) with its ZATCA QR code. */
export async function getInvoicePdf(deps: GetInvoicePdfDeps, user: CurrentUser, id: string): Promise<{ number: string; pdf: Buffer }> {
  const inv = await getInvoice(deps, user, id);
  return { number: inv.number, pdf: await renderInvoicePdf(inv) };
}
