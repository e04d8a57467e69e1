/**
 * Jobs and events benchmark (issue 6): `npm run bench:jobs`.
 *
 * Env: EVENTS (default 300), JOBS_N (default 100), ENGINE pglite|postgres|both (default both
 * when PostgreSQL is reachable at BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test).
 *
 * On a fresh database per engine, with the real composition root and job worker (default
 * JOBS_POLL_SECONDS 0.5, OUTBOX_POLL_MS 250):
 * - event latency: a transaction publishes one domain event and commits; the time from the
 *   commit until a subscriber's handler runs in the outbox drain (woken by the transaction's
 *   NOTIFY at commit: LISTEN on PostgreSQL, in process on PGlite). One event at a time.
 * - job latency: `jobs.send` of a pg-boss job until its handler starts (the sending instance
 *   wakes its own worker; other instances poll every JOBS_POLL_SECONDS).
 * - on PostgreSQL, the same event latency when another instance (its own pool, no worker)
 *   publishes: the commit's NOTIFY reaches this instance over LISTEN.
 * Prints p50 / p95 / max in milliseconds; never asserts timings.
 */
import { enginesToRun, freshDatabase, percentile as pct, pgUrl, withDb } from './lib.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createContainer } from '../apps/server/src/container.ts';
import { newId } from '../apps/server/src/lib/ids.ts';
import { publish } from '../apps/server/src/modules/events/events.service.ts';

const EVENTS = Number(process.env.EVENTS ?? 300);
const JOBS_N = Number(process.env.JOBS_N ?? 100);
const DB_NAME = 'masar_bench_jobs';

const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms | p95 ${pct(xs, 95).toFixed(1)} ms | max ${Math.max(...xs).toFixed(1)} ms (n=${xs.length})`;

async function run(engine: 'pglite' | 'postgres') {
  const { database, drop } = await freshDatabase(engine, DB_NAME);
  const config = loadConfig(
    { NODE_ENV: 'test', DATA_DIR: 'memory://', LOG_LEVEL: 'silent', DEMO_SEED: '0' },
    { jwtSecret: 'bench-secret-bench-secret-bench-secret-000' },
  );
  const arrived = new Map<string, number>();
  let notify: (() => void) | null = null;
  const container = createContainer({
    config,
    database,
    eventHandlers: [
      {
        name: 'bench',
        async handle(_tx, e) {
          if (!arrived.has(e.id)) arrived.set(e.id, performance.now());
          notify?.();
        },
      },
    ],
  });
  let jobStarted: ((t: number) => void) | null = null;
  container.jobs.define({ name: 'bench.job', retryLimit: 0, handler: async () => jobStarted?.(performance.now()) });
  await container.jobs.start();
  try {
    // events: publish → subscriber ran
    const eventMs: number[] = [];
    const accountId = newId();
    for (let i = 0; i < EVENTS + 20; i++) {
      const done = new Promise<void>((r) => (notify = r));
      let id = '';
      await database.db.transaction(async (tx) => {
        id = await publish(tx, {
          type: 'account.documents_submitted',
          aggregateType: 'account',
          aggregateId: accountId,
          actorId: null,
          data: { accountId },
        });
      });
      const committed = performance.now();
      while (!arrived.has(id)) await done;
      if (i >= 20) eventMs.push(arrived.get(id)! - committed); // the first 20 warm up
    }
    // on PostgreSQL, the same from another instance (its own pool, no worker): its commit's
    // NOTIFY wakes this instance's drain over LISTEN — no waiting for the poll
    const otherMs: number[] = [];
    if (engine === 'postgres') {
      const other = await openDatabase({ databaseUrl: withDb(pgUrl, DB_NAME), poolMax: 2 });
      try {
        for (let i = 0; i < EVENTS / 3 + 10; i++) {
          const done = new Promise<void>((r) => (notify = r));
          let id = '';
          await other.db.transaction(async (tx) => {
            id = await publish(tx, {
              type: 'account.documents_submitted',
              aggregateType: 'account',
              aggregateId: accountId,
              actorId: null,
              data: { accountId },
            });
          });
          const committed = performance.now();
          while (!arrived.has(id)) await done;
          if (i >= 10) otherMs.push(arrived.get(id)! - committed);
        }
      } finally {
        await other.close();
      }
    }
    // jobs: send → handler started
    const jobMs: number[] = [];
    for (let i = 0; i < JOBS_N + 5; i++) {
      const started = new Promise<number>((r) => (jobStarted = r));
      const t0 = performance.now();
      await container.jobs.send('bench.job', { i });
      const t1 = await started;
      if (i >= 5) jobMs.push(t1 - t0);
    }
    console.log(`${engine.padEnd(8)} event commit → handler ran:    ${fmt(eventMs)}`);
    if (otherMs.length) console.log(`${engine.padEnd(8)} event commit on another instance → handler ran: ${fmt(otherMs)}`);
    console.log(
      `${engine.padEnd(8)} job sent → handler started:      ${fmt(jobMs)}  (sent in this instance: the worker is woken; other instances poll every ${config.JOBS_POLL_SECONDS} s)`,
    );
  } finally {
    await container.close();
    await drop();
  }
}

async function main() {
  const engines = await enginesToRun();
  console.log(`Jobs and events latency, ${EVENTS} events and ${JOBS_N} jobs one at a time, engines: ${engines.join(', ')}`);
  for (const engine of engines) await run(engine);
}

await main();
