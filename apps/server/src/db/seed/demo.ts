import { eq } from 'drizzle-orm';
import { ACCOUNT_TYPE, PROFILE_STATUS } from '@masar/shared';
import type { Config } from '../../config.ts';
import { newId } from '../../lib/ids.ts';
import { hashPassword } from '../../lib/password.ts';
import type { Db } from '../client.ts';
import { subscriptions, users } from '../schema/index.ts';
import { seedDemoFleet } from './demo-fleet.ts';
import { seedDemoLoads } from './demo-loads.ts';

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

/** Create the demo accounts when missing. Returns their ids by account type. Idempotent. */
export async function seedDemoAccounts(db: Db): Promise<Record<1 | 2 | 3, string>> {
  const ids = {} as Record<1 | 2 | 3, string>;
  for (const a of DEMO_ACCOUNTS) {
    const existing = await db.select({ id: users.id }).from(users).where(eq(users.phone, a.phone)).limit(1);
    if (existing[0]) {
      ids[a.accountType] = existing[0].id;
      continue;
    }
    const id = newId();
    await db.transaction(async (tx) => {
      await tx.insert(users).values({
        id,
        ...a,
        passwordHash: await hashPassword(DEMO_PASSWORD),
        status: PROFILE_STATUS.approved,
        isFirstTimeApproved: true,
        isFirstTimeLoginAfterApproved: false,
      });
      await tx.insert(subscriptions).values({ id: newId(), userId: id, planCode: 'demo', planName: 'Demo plan', active: true });
    });
    ids[a.accountType] = id;
  }
  return ids;
}

/** Seed demo accounts, loads, fleets and vendors (README "Demo accounts"). Idempotent. */
export async function seedDemo(db: Db, config: Config): Promise<void> {
  const ids = await seedDemoAccounts(db);
  await seedDemoLoads(db, config, ids);
  await seedDemoFleet(db, config, ids);
}
