/**
 * Stored notifications at scale (issue 21): `npm run bench:notifications`.
 *
 * PostgreSQL only (BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test): creates the
 * database `masar_bench_notifications`, drops it afterwards (KEEP_DB=1 keeps and reuses it).
 * ROWS notifications (default 1,000,000) over USERS users (default 10,000); one "busy" user holds
 * 5% of all rows (50,000 at 1M) — the account a digest exists for. A third of the rows unread,
 * categories spread over the seven; the counters match. Inserted with generate_series.
 *
 * Scenarios (serial, in process, RUNS each, default 200; each run draws a random user — the busy
 * one every fourth run — and for `deep` a random cursor inside that user's rows):
 * - page: the first page of GET /user/notification (20, newest first);
 * - unread: the first page of unread only; category: the first page of one category;
 * - deep: a page after a random cursor; count: the unread counter;
 * - insert: the handler's insert of 3 rows (+ their counters) for random users;
 * - markAll: mark all read for a user with ~10 fresh unread rows (inserted just before, not timed).
 * Figures: p50/p95 ms. Then EXPLAIN (ANALYZE, BUFFERS) of the page queries for the busy user.
 * Then (issue 48) mark-all-read at scale, HEAVY_RUNS times (default 5): a fresh user with
 * HEAVY_ROWS (default 10,000) unread notifications (seeded, not timed) marks all read; printed:
 * that call's ms, the rows it updated (n_tup_upd of notifications), and the shared buffers
 * (hit + read) of EXPLAIN (ANALYZE, BUFFERS) of the unread list right after (listOf's two
 * statements: watermarkOf and listSql), before any vacuum.
 * Prints figures; never asserts timings.
 */
import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { openDatabase, type Database } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import * as repo from '../apps/server/src/modules/notifications/notifications.repository.ts';
import { newId } from '../apps/server/src/lib/ids.ts';
import { NOTIFICATION_CATEGORIES } from '@masar/shared';
import { queryRows } from '../apps/server/src/lib/sql.ts';
import { pgUrl, withDb } from './lib.ts';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const USERS = Number(process.env.USERS ?? 10_000);
const RUNS = Number(process.env.RUNS ?? 200);
const NAME = 'masar_bench_notifications';
const log = (s: string) => process.stderr.write(`${s}\n`);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const uid = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const BUSY = uid(1);
const pick = <T>(a: readonly T[]) => a[Math.floor(Math.random() * a.length)];
const userOf = (i: number) => (i % 4 === 0 ? BUSY : uid(1 + Math.floor(Math.random() * USERS)));

async function open(): Promise<Database> {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [NAME])).rowCount;
  const keep = process.env.KEEP_DB === '1' && exists;
  if (!keep) {
    await admin.query(`drop database if exists ${NAME} with (force)`);
    await admin.query(`create database ${NAME}`);
  }
  await admin.end();
  const database = await openDatabase({ databaseUrl: withDb(pgUrl, NAME) });
  await migrate(database);
  if (!keep) await seed(database);
  return database;
}

async function seed(database: Database) {
  const t0 = Date.now();
  const cats = `(array[${NOTIFICATION_CATEGORIES.map((c) => `'${c}'`).join(',')}])`;
  const busyRows = Math.floor(ROWS * 0.05);
  for (let start = 1; start <= ROWS; start += 200_000) {
    const end = Math.min(ROWS, start + 199_999);
    // ids ordered like UUIDv7 (by i); the first 5% belong to the busy user, interleaved in time
    await database.exec(`
      insert into notifications (id, user_id, account_id, type, category, event_id, load_id, reference_id, params, link, created_at, read_at)
      select ('00000000-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid as id, u, u, 'offer.created', ${cats}[1 + (i % 7)],
             ('10000000-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, null, 'LD-' || lpad(i::text, 7, '0'),
             '{"priceSar":"2500.00"}'::jsonb, '/shippers/my-loads', now() - make_interval(secs => ${ROWS} - i),
             case when i % 3 = 0 then null else now() end
      from generate_series(${start}, ${end}) i,
           lateral (select case when i % ${Math.max(1, Math.floor(ROWS / busyRows))} = 0 then '${BUSY}'::uuid
                                else ('00000000-0000-7000-8000-' || lpad((2 + (hashint4(i) & 2147483647) % ${USERS - 1})::text, 12, '0'))::uuid end as u) x`);
    log(`  ${end.toLocaleString()} rows`);
  }
  await database.exec(`insert into notification_counters (user_id, unread)
    select user_id, count(*) filter (where read_at is null) from notifications group by user_id`);
  await database.exec('analyze notifications; analyze notification_counters');
  log(`seeded ${ROWS.toLocaleString()} notifications over ${USERS.toLocaleString()} users in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

async function measure(name: string, fn: (i: number) => Promise<unknown>, before?: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (before) await before(i);
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(10)} p50 ${pct(times, 50).toFixed(2)} ms   p95 ${pct(times, 95).toFixed(2)} ms`);
}

const database = await open();
const db = database.db;
const [{ n }] = await database.query<{ n: number }>('select count(*)::int as n from notifications');
const [{ busy }] = await database.query<{ busy: number }>('select count(*)::int as busy from notifications where user_id = $1', [BUSY]);
console.log(`notifications: ${n.toLocaleString()} rows, ${USERS.toLocaleString()} users, busy user ${busy.toLocaleString()} rows; ${RUNS} runs each`);
const busyIds = (await database.query<{ id: string }>('select id from notifications where user_id = $1 order by random() limit 500', [BUSY])).map((r) => r.id);

await measure('page', (i) => repo.listOf(db, userOf(i), { unreadOnly: false, limit: 20 }));
await measure('unread', (i) => repo.listOf(db, userOf(i), { unreadOnly: true, limit: 20 }));
await measure('category', (i) => repo.listOf(db, userOf(i), { unreadOnly: false, category: pick(NOTIFICATION_CATEGORIES), limit: 20 }));
await measure('deep', () => repo.listOf(db, BUSY, { unreadOnly: false, cursor: pick(busyIds), limit: 20 }));
await measure('count', (i) => repo.unreadOf(db, userOf(i)));
const fresh = (userId: string, k: number) =>
  Array.from({ length: k }, () => ({
    id: newId(),
    userId,
    accountId: userId,
    type: 'offer.created',
    category: 'offers',
    eventId: newId(),
    loadId: null,
    referenceId: 'LD-0000001',
    params: { priceSar: '2500.00' },
    link: '/shippers/my-loads',
  }));
await measure('insert', (i) => db.transaction((tx) => repo.insertNotifications(tx, [...fresh(userOf(i), 1), ...fresh(userOf(i + 1), 2)])));
let target = BUSY;
await measure(
  'markAll',
  () => db.transaction((tx) => repo.markRead(tx, target, 'all')),
  async (i) => {
    target = i % 2 ? BUSY : uid(2 + Math.floor(Math.random() * (USERS - 1)));
    await db.transaction((tx) => repo.markRead(tx, target, 'all'));
    await db.transaction((tx) => repo.insertNotifications(tx, fresh(target, 10)));
  },
);

const dialect = new PgDialect();
const COLS = sql`select id, user_id, type, category, load_id, reference_id, params, link, created_at, read_at from notifications`;
const plan = async (label: string, query: SQL) => {
  const q = dialect.sqlToQuery(query);
  const rows = await database.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${q.sql}`, q.params);
  console.log(`\n${label}\n${rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
};
// the statements listOf runs (notifications.repository.ts), for the busy user
await plan('page (busy user)', sql`${COLS} where user_id = ${BUSY} order by id desc limit 20`);
await plan('unread (busy user)', repo.listSql(BUSY, { unreadOnly: true, limit: 20 }, await repo.watermarkOf(db, BUSY)));
await plan('category (busy user)', sql`${COLS} where user_id = ${BUSY} and category = 'billing' order by id desc limit 20`);
await plan('deep (busy user)', sql`${COLS} where user_id = ${BUSY} and id < ${busyIds[0]} order by id desc limit 20`);

// issue 48: mark-all-read on an account with HEAVY_ROWS unread notifications, then its unread list
const HEAVY_ROWS = Number(process.env.HEAVY_ROWS ?? 10_000);
const HEAVY_RUNS = Number(process.env.HEAVY_RUNS ?? 5);
/** Shared buffers (hit + read) of the plan's top node: what reading the statement touched. */
const buffersOf = async (query: SQL) => {
  const q = dialect.sqlToQuery(query);
  const rows = await database.query<{ 'QUERY PLAN': unknown }>(`explain (analyze, buffers, format json) ${q.sql}`, q.params);
  const raw = rows[0]['QUERY PLAN'];
  const top = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: Record<string, number> }[];
  return (top[0].Plan['Shared Hit Blocks'] ?? 0) + (top[0].Plan['Shared Read Blocks'] ?? 0);
};
const heavy = { ms: [] as number[], buffers: [] as number[], updated: [] as number[] };
for (let k = 0; k < HEAVY_RUNS; k++) {
  const user = uid(USERS + 100 + k);
  await database.exec(`
    insert into notifications (id, user_id, account_id, type, category, event_id, load_id, reference_id, params, link, created_at, read_at)
    select ('00000000-0000-7000-9${String(k).padStart(3, '0')}-' || lpad(to_hex(i), 12, '0'))::uuid, '${user}', '${user}', 'offer.created', 'offers',
           gen_random_uuid(), null, 'LD-0000001', '{}'::jsonb, '/shippers/my-loads', now() - make_interval(secs => ${HEAVY_ROWS} - i), null
    from generate_series(1, ${HEAVY_ROWS}) i;
    insert into notification_counters (user_id, unread) values ('${user}', ${HEAVY_ROWS});
    analyze notifications`);
  const t = performance.now();
  const updated = await db.transaction(async (tx) => {
    await repo.markRead(tx, user, 'all');
    const [r] = await queryRows<{ n: number }>(tx, sql`select n_tup_upd::int as n from pg_stat_xact_user_tables where relname = 'notifications'`);
    return r?.n ?? 0;
  });
  heavy.ms.push(performance.now() - t);
  heavy.updated.push(updated);
  // listOf's two statements: the watermark (a counter primary-key read), then the page
  const mark = await repo.watermarkOf(db, user);
  const page = repo.listSql(user, { unreadOnly: true, limit: 20 }, mark);
  heavy.buffers.push((await buffersOf(sql`select read_upto, read_upto_at from notification_counters where user_id = ${user}`)) + (await buffersOf(page)));
  if (k === HEAVY_RUNS - 1) await plan(`unread after mark-all-read of ${HEAVY_ROWS.toLocaleString()}`, page);
}
console.log(
  `\nmark-all-read of ${HEAVY_ROWS.toLocaleString()} unread (${HEAVY_RUNS} users): ms ${heavy.ms.map((x) => x.toFixed(1)).join(', ')} (p50 ${pct(
    [...heavy.ms].sort((a, b) => a - b),
    50,
  ).toFixed(1)}); ` + `notification rows updated ${heavy.updated.join(', ')}; unread list after: shared buffers ${heavy.buffers.join(', ')}`,
);

await database.close();
if (process.env.KEEP_DB !== '1') {
  const a = new pg.Client({ connectionString: pgUrl });
  await a.connect();
  await a.query(`drop database if exists ${NAME} with (force)`);
  await a.end();
}
