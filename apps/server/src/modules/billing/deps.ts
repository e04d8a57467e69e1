import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { PaymentGateway } from '../../gateways/payments/payments.ts';

/** The seller's details printed on every invoice. */
export type Seller = Pick<Config, 'SELLER_NAME_EN' | 'SELLER_NAME_AR' | 'SELLER_VAT_NUMBER' | 'SELLER_ADDRESS'>;

/** What the billing module's use cases are built from (the container passes them to createBillingService). */
export interface BillingDeps {
  db: Db;
  payments: PaymentGateway;
  seller: Seller;
  /** The web app's public origin (the 3-D Secure callback URL). */
  publicUrl: string;
}
