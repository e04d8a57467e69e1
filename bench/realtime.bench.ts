/**
 * The real-time channel (issue 21; docs/realtime.md): `npm run bench:realtime`.
 *
 * The product's server (benchApp: production settings, PGlite in memory by default, ENGINE=postgres
 * for PostgreSQL) with its embedded MQTT broker at /mqtt; the MQTT clients run in child processes
 * (bench/realtime-clients.ts), so the server's memory is its own. Figures:
 * - latency publish → receive (p50/p95/p99 ms) of MESSAGES messages (default 2,000), each to a random
 *   one of CLIENTS connected users (default 1,000), within one instance — and across two instances
 *   on Redis (the publisher on A, the clients on B) when PostgreSQL and Redis answer;
 * - the server's RSS and heap per 1,000 idle connections;
 * - HOLD connections (default 10,000) held at once on one instance: how many connected, failed.
 * Prints figures; asserts nothing.
 */
import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { benchApp, enginesToRun, freshDatabase } from './lib.ts';
import type { Database } from '../apps/server/src/db/client.ts';

const CLIENTS = Number(process.env.CLIENTS ?? 1000);
const MESSAGES = Number(process.env.MESSAGES ?? 2000);
const HOLD = Number(process.env.HOLD ?? 10_000);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = (s: string) => process.stderr.write(`${s}\n`);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const f1 = (n: number) => n.toFixed(1);
const uid = (n: number) => `00000000-0000-7000-9000-${String(n).padStart(12, '0')}`;
const mb = (b: number) => b / 1024 / 1024;

async function seedUsers(database: Database, n: number) {
  await database.query(
    `insert into users (id, account_type, first_name, last_name, company_name, email, phone, password_hash, status)
     select ('00000000-0000-7000-9000-' || lpad(g::text, 12, '0'))::uuid, 2, 'Bench', 'User', 'Bench Co', 'rt' || g || '@bench.masar.sa',
            '+9665' || lpad((70000000 + g)::text, 8, '0'), 'x', 2
       from generate_series(1, $1::int) g on conflict do nothing`,
    [n],
  );
}

/** Start a clients child for `users`; resolves once they are connected. */
async function clients(url: string, users: { id: string; token: string }[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/realtime-clients.ts'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let buf = '';
  const waiters: ((l: string) => void)[] = [];
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const l = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const w = waiters.shift();
      if (w) w(l);
      else lines.push(l);
    }
  });
  const next = () => new Promise<string>((r) => (lines.length ? r(lines.shift()!) : waiters.push(r)));
  child.stdin.write(`${JSON.stringify({ url, users })}\n`);
  const ready = JSON.parse(await next()) as { ready: number; failed: number };
  return {
    ready,
    async report() {
      child.stdin.write('report\n');
      return JSON.parse(await next()) as { latencies: number[]; connected: number };
    },
  };
}

type App = Awaited<ReturnType<typeof benchApp>>;
const wsOf = (a: App) => `${a.origin.replace('http', 'ws')}/mqtt`;

async function latency(label: string, publisher: App, receiverUrl: string, users: { id: string; token: string }[]) {
  const c = await clients(receiverUrl, users);
  const rt = publisher.app.container.realtime!;
  await new Promise((r) => setTimeout(r, 500));
  for (let i = 0; i < MESSAGES; i++) {
    const u = users[Math.floor(Math.random() * users.length)];
    const sent = performance.timeOrigin + performance.now();
    await rt.publishToUsers([u.id], {
      v: 1,
      kind: 'event',
      id: String(sent),
      type: 'load.posted',
      aggregateType: 'load',
      aggregateId: u.id,
      loadId: null,
      at: new Date().toISOString(),
    });
    // about 500 messages a second
    if (i % 10 === 9) await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 1000));
  const { latencies } = await c.report();
  const s = latencies.sort((a, b) => a - b);
  log(
    `${label}: ${c.ready.ready} clients (${c.ready.failed} failed); ${s.length}/${MESSAGES} received; p50 ${f1(pct(s, 50))} ms, p95 ${f1(pct(s, 95))} ms, p99 ${f1(pct(s, 99))} ms`,
  );
}

for (const engine of await enginesToRun()) {
  const { database, drop } = await freshDatabase(engine, 'masar_bench_realtime');
  await seedUsers(database, Math.max(CLIENTS, HOLD, 1000));
  const a = await benchApp(database);
  const tokens = async (n: number, app: App) =>
    Promise.all(Array.from({ length: n }, (_, i) => app.tokenFor(uid(i + 1)).then((token) => ({ id: uid(i + 1), token }))));
  log(`\n== ${engine}`);
  await latency(`one instance, ${CLIENTS} clients`, a, wsOf(a), await tokens(CLIENTS, a));

  // memory per 1,000 idle connections (the server process only)
  global.gc?.();
  const before = process.memoryUsage();
  const idle = await clients(wsOf(a), await tokens(1000, a));
  await new Promise((r) => setTimeout(r, 2000));
  global.gc?.();
  const after = process.memoryUsage();
  log(
    `1,000 idle connections: server RSS +${f1(mb(after.rss - before.rss))} MB, heap +${f1(mb(after.heapUsed - before.heapUsed))} MB${global.gc ? '' : ' (run with --expose-gc for steadier heap figures)'}`,
  );
  await idle.report();

  // HOLD connections at once, in children of 2,500 each
  const all = await tokens(HOLD, a);
  const t0 = Date.now();
  const kids = [];
  for (let i = 0; i < all.length; i += 2500) kids.push(clients(wsOf(a), all.slice(i, i + 2500)));
  const held = await Promise.all(kids);
  const connected = held.reduce((n, k) => n + k.ready.ready, 0);
  const failed = held.reduce((n, k) => n + k.ready.failed, 0);
  log(
    `${HOLD} connections held on one instance: ${connected} connected, ${failed} failed, in ${((Date.now() - t0) / 1000).toFixed(1)} s; server RSS ${f1(mb(process.memoryUsage().rss))} MB`,
  );
  const still = await Promise.all(held.map((k) => k.report()));
  log(`  still connected at the end: ${still.reduce((n, s) => n + s.connected, 0)}`);

  if (engine === 'postgres') {
    const redisOk = await new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
      .connect()
      .then(() => true)
      .catch(() => false);
    if (redisOk) {
      const prefix = `masar-bench-rt-${Date.now().toString(36)}:`;
      const p = await benchApp(database, { REDIS_URL, REDIS_KEY_PREFIX: prefix });
      const q = await benchApp(database, { REDIS_URL, REDIS_KEY_PREFIX: prefix });
      await latency(`two instances on Redis (publish on A, ${CLIENTS} clients on B)`, p, wsOf(q), await tokens(CLIENTS, q));
      await p.app.close();
      await q.app.close();
    } else log('two instances: skipped (Redis not reachable)');
  }
  await a.app.close();
  await drop();
}
process.exit(0);
