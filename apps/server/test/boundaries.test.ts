import { fileURLToPath } from 'node:url';
import { getTableName, isTable } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema/index.ts';
import { sources, statusWriters, tableWrites, type Source } from './source-scan.ts';

// Boundaries that hold by construction (issue 18; docs/architecture.md "Module ownership"): a scan
// of the server's source, no database. They run in both server projects (cheap: text only).

const root = fileURLToPath(new URL('../../..', import.meta.url));
const server = sources(root, 'apps/server/src');

/** Every table of the schema → the one module whose repository may insert, update or delete its rows. */
const OWNER: Record<string, string> = {
  // reference data (loaded by db/reference at migration time; read-only for the modules)
  regions: 'reference',
  cities: 'reference',
  districts: 'reference',
  goods_types: 'reference',
  equipment_types: 'reference',
  users: 'auth',
  otps: 'auth',
  sessions: 'auth',
  api_keys: 'apikeys',
  subscriptions: 'billing',
  payment_cards: 'billing',
  promo_codes: 'billing',
  promo_redemptions: 'billing',
  payment_intents: 'billing',
  wallet_entries: 'billing',
  invoices: 'billing',
  bayan_trips: 'bayan',
  bayan_sandbox_trips: 'bayan',
  waybill_configs: 'bayan',
  csv_logs: 'csv',
  csv_log_rows: 'csv',
  outbox_events: 'events',
  outbox_deliveries: 'events',
  load_timeline: 'events',
  files: 'files',
  vehicles: 'fleet',
  trailers: 'fleet',
  drivers: 'fleet',
  trusted_drivers: 'fleet',
  idempotency_keys: 'idempotency',
  loads: 'loads',
  load_stops: 'loads',
  // the board card (issue 45): derived, written by db/load-cards.ts in the transaction of the loads or offers write that changes it
  load_cards: 'loads',
  cargo_lines: 'loads',
  load_bookmarks: 'loads',
  load_vendors: 'loads',
  board_versions: 'loads',
  offers: 'offers',
  offer_events: 'offers',
  business_profiles: 'profile',
  contact_shares: 'profile',
  saved_addresses: 'profile',
  user_favourites: 'relations',
  user_blocks: 'relations',
  contact_settings: 'relations',
  team_members: 'team',
  contact_messages: 'contact',
  chat_conversations: 'chat',
  calls: 'calls',
  call_lines: 'calls',
  chat_messages: 'chat',
  account_presence: 'realtime',
  team_events: 'team',
  vehicle_positions: 'trips',
  vehicle_latest_positions: 'trips',
  trip_steps: 'trips',
  trip_proofs: 'trips',
  vendors: 'vendors',
  trucks: 'trucks',
  truck_destinations: 'trucks',
  trucks_posted_hourly: 'trucks',
  truck_board_versions: 'trucks',
  account_records: 'records',
  account_record_loads: 'records',
  rate_records: 'rates',
  lane_rate_daily: 'rates',
  dashboard_loads: 'dashboards',
  dashboard_daily: 'dashboards',
  dashboard_open: 'dashboards',
  dashboard_lane_months: 'dashboards',
  dashboard_lane_days: 'dashboards',
  dashboard_lane_years: 'dashboards',
  dashboard_offers: 'dashboards',
  lane_rate_monthly: 'rates',
  rate_alerts: 'rates',
  rate_alert_firings: 'rates',
  tenders: 'tenders',
  tender_invites: 'tenders',
  saved_searches: 'searches',
  recent_searches: 'searches',
  escrows: 'escrow',
  detention_decisions: 'detention',
  payout_accounts: 'payouts',
  ledger_journals: 'ledger',
  ledger_postings: 'ledger',
  verification_documents: 'verification',
  verification_reviews: 'verification',
  webhook_endpoints: 'webhooks',
  webhook_deliveries: 'webhooks',
  webhook_attempts: 'webhooks',
  notifications: 'notifications',
  notification_counters: 'notifications',
  notification_preferences: 'notifications',
  notification_emails: 'notifications',
  // web push (issue 21): browsers' subscriptions and the pushes waiting to go out
  push_subscriptions: 'notifications',
  notification_pushes: 'notifications',
};

const tables = new Map<string, string>();
for (const [name, v] of Object.entries(schema)) if (isTable(v)) tables.set(name, getTableName(v));

const fake = (text: string): Source => ({ path: 'apps/server/src/modules/x/x.repository.ts', text });

describe('one lifecycle: who writes loads.status, offers.status and the other lifecycle tables', () => {
  it('the scanner finds SQL and drizzle status writes, and ignores status in a where clause', () => {
    expect(statusWriters([fake("sql`update loads set status = 'expired', updated_at = now() where id = ${id}`")], 'loads')).toHaveLength(1);
    expect(statusWriters([fake("sql`update loads l set carrier_id = 1, status = 'x' where l.id = ${id}`")], 'loads')).toHaveLength(1);
    expect(statusWriters([fake('tx.update(offers).set({ ...set, status: to }).where(x)')], 'offers')).toHaveLength(1);
    expect(statusWriters([fake('const p = [sql`status = ${s}`]; sql`update offers set ${sql.join(p)} where id = ${id}`')], 'offers')).toHaveLength(1);
    // calls and Bayan trips (issue 51): SQL with a fragment of the set list, drizzle on the schema export (bayanTrips)
    expect(statusWriters([fake("sql`update calls set status = 'active', answered_at = now() where id = ${id}`")], 'calls')).toHaveLength(1);
    expect(statusWriters([fake('sql`update calls set status = ${to}, ${stamp} where id = ${id} and status = ${from}`')], 'calls')).toHaveLength(1);
    expect(statusWriters([fake("tx.update(bayanTrips).set({ ...patch, status: 'closed', updatedAt: new Date() })")], 'bayan_trips')).toHaveLength(1);
    expect(statusWriters([fake("sql`update bayan_trips b set status = 'cancelled' where b.id = ${id}`")], 'bayan_trips')).toHaveLength(1);
    expect(statusWriters([fake('tx.update(bayanTrips).set({ attempts: 1, lastError }).where(sql`status = ${s}`)')], 'bayan_trips')).toEqual([]);
    expect(statusWriters([fake("sql`update calls set ended_at = now() where status = 'ringing'`")], 'calls')).toEqual([]);
    expect(statusWriters([fake("sql`update loads set price = 1 where status = 'posted'`")], 'loads')).toEqual([]);
    expect(statusWriters([fake('tx.update(loads).set({ price }).where(sql`status = ${s}`)')], 'loads')).toEqual([]);
    expect(
      statusWriters(
        [fake("// update loads set status = 'x'\n")].map((f) => ({ ...f, text: f.text.replace(/\/\/.*/, '') })),
        'loads',
      ),
    ).toEqual([]);
  });

  it('only loads/lifecycle.repository.ts writes loads.status (through transition() in lifecycle.ts)', () => {
    const hits = statusWriters(server, 'loads');
    expect([...new Set(hits.map((h) => h.path))]).toEqual(['apps/server/src/modules/loads/lifecycle.repository.ts']);
  });

  it('only offers/lifecycle.repository.ts writes offers.status (through transitionOffer() in lifecycle.ts)', () => {
    const hits = statusWriters(server, 'offers');
    expect([...new Set(hits.map((h) => h.path))]).toEqual(['apps/server/src/modules/offers/lifecycle.repository.ts']);
  });

  it('only the lifecycle modules call the status-writing repositories', () => {
    const callers = server.filter((f) => /lifecycle\.repository\.ts'/.test(f.text)).map((f) => f.path);
    expect(callers.sort()).toEqual([
      'apps/server/src/modules/bayan/lifecycle.ts',
      'apps/server/src/modules/billing/lifecycle.ts',
      'apps/server/src/modules/calls/lifecycle.ts',
      'apps/server/src/modules/escrow/lifecycle.ts',
      'apps/server/src/modules/loads/lifecycle.ts',
      'apps/server/src/modules/offers/lifecycle.ts',
      'apps/server/src/modules/tenders/lifecycle.ts',
      'apps/server/src/modules/trucks/lifecycle.ts',
    ]);
  });

  it('only tenders/lifecycle.repository.ts writes tenders.status and tender_invites.status (through tenders/lifecycle.ts)', () => {
    for (const table of ['tenders', 'tender_invites'] as const) {
      const hits = statusWriters(server, table);
      expect([...new Set(hits.map((h) => h.path))], table).toEqual(['apps/server/src/modules/tenders/lifecycle.repository.ts']);
    }
  });

  it('only trucks/lifecycle.repository.ts writes trucks.status (through transition() in trucks/lifecycle.ts)', () => {
    const hits = statusWriters(server, 'trucks');
    expect([...new Set(hits.map((h) => h.path))]).toEqual(['apps/server/src/modules/trucks/lifecycle.repository.ts']);
  });

  // issue 51: every status by a transition table
  for (const [table, module, apply] of [
    ['calls', 'calls', 'transitionCall()'],
    ['bayan_trips', 'bayan', 'transitionTrip()'],
    // issue 50: payment protection
    ['escrows', 'escrow', 'transitionEscrow()'],
  ] as const)
    it(`only ${module}/lifecycle.repository.ts writes ${table}.status (through ${apply} in ${module}/lifecycle.ts)`, () => {
      const hits = statusWriters(server, table);
      expect([...new Set(hits.map((h) => h.path))]).toEqual([`apps/server/src/modules/${module}/lifecycle.repository.ts`]);
    });
});

describe('one lifecycle: who writes subscriptions.status', () => {
  it('the scanner fires on a subscription status write outside billing/lifecycle.repository.ts', () => {
    const elsewhere = (text: string): Source => ({ path: 'apps/server/src/modules/billing/billing.repository.ts', text });
    expect(statusWriters([elsewhere("tx.update(subscriptions).set({ active: false, status: 'cancelled' }).where(x)")], 'subscriptions')).toHaveLength(1);
    expect(statusWriters([elsewhere("sql`update subscriptions set status = 'expired' where id = ${id}`")], 'subscriptions')).toHaveLength(1);
    expect(statusWriters([elsewhere('db.update(subscriptions).set({ lastRenewalAt: now }).where(eq(subscriptions.status, s))')], 'subscriptions')).toEqual([]);
  });

  it('only billing/lifecycle.repository.ts writes subscriptions.status (through billing/lifecycle.ts, SUBSCRIPTION_TRANSITIONS)', () => {
    const hits = statusWriters(server, 'subscriptions');
    expect([...new Set(hits.map((h) => h.path))]).toEqual(['apps/server/src/modules/billing/lifecycle.repository.ts']);
  });
});

describe('one owner per table', () => {
  it('every table of the schema has its owning module', () => {
    expect([...tables.values()].filter((t) => !(t in OWNER))).toEqual([]);
    expect(Object.keys(OWNER).filter((t) => ![...tables.values()].includes(t))).toEqual([]);
  });

  it("no module's repository writes a table another module owns", () => {
    const repos = server.filter((f) => /^apps\/server\/src\/modules\/[^/]+\/[^/]+\.repository\.ts$/.test(f.path));
    expect(repos.length).toBeGreaterThan(15);
    const writes = repos.flatMap((f) => tableWrites(f, tables));
    // the scan sees the writes it must see
    expect(writes.some((w) => w.table === 'loads' && w.path.endsWith('loads/lifecycle.repository.ts') && w.kind === 'update')).toBe(true);
    expect(writes.some((w) => w.table === 'subscriptions' && w.path.endsWith('billing/billing.repository.ts'))).toBe(true);
    const foreign = writes
      .filter((w) => OWNER[w.table] !== w.path.split('/')[4])
      .map((w) => `${w.path}:${w.line} ${w.kind} ${w.table} (owner: ${OWNER[w.table]})`);
    expect(foreign).toEqual([]);
  });

  it('the scanner sees SQL and drizzle writes', () => {
    const w = tableWrites(fake('db.insert(subscriptions).values(x); sql`delete from offers where id = 1`; sql`update users set x = 1`'), tables);
    expect(w.map((x) => `${x.kind} ${x.table}`).sort()).toEqual(['delete offers', 'insert subscriptions', 'update users']);
  });
});
