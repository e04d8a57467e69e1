import { ACCOUNT_TYPE } from '@masar/shared';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { AccountAdmin } from '../modules/auth/account-admin.service.ts';
import { DEMO_PLAN_CODE, type BillingService } from '../modules/billing/billing.service.ts';
import { seedDemoFleet } from './demo-fleet.ts';
import { seedDemoLoads, type DemoLoadsRefresh } from './demo-loads.ts';
import { demoRateLeadCompany, generateRateHistory } from '../db/seed/rate-history.ts';
import type { RatesService } from '../modules/rates/rates.service.ts';

/** Demo accounts (README "Demo accounts"): approved, with an active plan. */
export const DEMO_PASSWORD = 'Masar@2026';
export const DEMO_ACCOUNTS = [
  {
    phone: '+966500000001',
    accountType: ACCOUNT_TYPE.shipper,
    firstName: 'Sara',
    lastName: 'Al-Harbi',
    companyName: 'Najd Foods Trading',
    email: 'shipper@demo.masar.sa',
  },
  {
    phone: '+966500000002',
    accountType: ACCOUNT_TYPE.carrier,
    firstName: 'Fahad',
    lastName: 'Al-Qahtani',
    companyName: 'Qahtani Transport Co.',
    email: 'carrier@demo.masar.sa',
  },
  {
    phone: '+966500000003',
    accountType: ACCOUNT_TYPE.broker,
    firstName: 'Omar',
    lastName: 'Al-Ghamdi',
    companyName: 'Ghamdi Logistics (TMS)',
    email: 'broker@demo.masar.sa',
  },
] as const;

/** Create the demo accounts when missing (auth module's account service). Returns their ids by account type. Idempotent. */
export async function seedDemoAccounts(accounts: AccountAdmin): Promise<Record<1 | 2 | 3, string>> {
  const ids = {} as Record<1 | 2 | 3, string>;
  for (const a of DEMO_ACCOUNTS) ids[a.accountType] = await accounts.ensureApprovedAccount(a, DEMO_PASSWORD, { code: DEMO_PLAN_CODE, name: 'Demo plan' });
  return ids;
}

/**
 * Seed demo accounts, loads, fleets and vendors (README "Demo accounts") with the services and
 * repositories of the container. Idempotent.
 */
export async function seedDemo(c: {
  db: Db;
  config: Config;
  services: { accounts: AccountAdmin; billing: BillingService; loads: DemoLoadsRefresh; rates: RatesService };
}): Promise<void> {
  const ids = await seedDemoAccounts(c.services.accounts);
  // a promo code to try checkout with (README "Plans and payments")
  await c.services.billing.upsertPromo({ code: 'WELCOME10', kind: 'percent', value: '10' });
  await seedDemoLoads(c.db, c.config, ids, c.services.loads);
  await seedDemoFleet(c.db, c.config, ids);
  await seedDemoRates(c.services.rates, ids);
}

/**
 * A year of market-rate history on the main lanes (issue 20; db/seed/rate-history.ts), loaded in
 * bulk through the rates module once (skipped when its companies' records exist). The demo
 * shipper and broker own a few of the Riyadh bookings, so "my average" shows. Returns how many
 * records were loaded.
 */
export async function seedDemoRates(rates: Pick<RatesService, 'recordBulk' | 'companyHasRecords'>, ids: Record<1 | 2 | 3, string>): Promise<number> {
  if (await rates.companyHasRecords(demoRateLeadCompany())) return 0;
  const { inserted } = await rates.recordBulk(generateRateHistory({ ownCompanyIds: [ids[1], ids[3]] }));
  return inserted;
}
