/**
 * Webhook delivery benchmark (issue 11): `npm run bench:webhooks`.
 *
 * Env: EVENTS (default 200), ENGINE pglite|postgres|both (default both when PostgreSQL answers).
 * On a fresh database per engine with the real composition root and job worker: one account with
 * a webhook endpoint (a local HTTP receiver) subscribed to load.posted; a transaction publishes
 * one event and commits; the time until the receiver has the signed POST (outbox drain → fan-out
 * → sender). One event at a time. Prints p50 / p95 / max in ms; never asserts timings.
 */
import { createServer } from 'node:http';
import { ACCOUNT_TYPE, PROFILE_STATUS } from '@masar/shared';
import { loadConfig } from '../apps/server/src/config.ts';
import { createContainer } from '../apps/server/src/container.ts';
import { newId } from '../apps/server/src/lib/ids.ts';
import { publish } from '../apps/server/src/modules/events/events.service.ts';
import { enginesToRun, freshDatabase, type Engine } from './lib.ts';

const EVENTS = Number(process.env.EVENTS ?? 200);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function run(engine: Engine) {
  const { database, drop } = await freshDatabase(engine, 'masar_bench_webhooks');
  const arrived = new Map<string, number>();
  let notify: (() => void) | null = null;
  const rx = createServer((req, res) => {
    const id = String(req.headers['masar-event-id']);
    req.resume();
    req.on('end', () => {
      if (!arrived.has(id)) arrived.set(id, performance.now());
      res.writeHead(204).end();
      notify?.();
    });
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', () => r()));
  const config = loadConfig(
    { NODE_ENV: 'development', DATA_DIR: 'memory://', LOG_LEVEL: 'silent', DEMO_SEED: '0', WEBHOOKS_ALLOW_PRIVATE: '1' },
    { jwtSecret: 'bench-secret-bench-secret-bench-secret-000' },
  );
  const container = createContainer({ config, database });
  await container.jobs.start();
  try {
    const userId = await container.services.accounts.ensureApprovedAccount(
      { phone: '+966500009998', accountType: ACCOUNT_TYPE.shipper, firstName: 'Bench', lastName: 'Shipper', companyName: 'Bench Co', email: 'hooks@bench.sa' },
      'Bench@2026',
      { code: 'bench', name: 'Bench' },
    );
    const user = {
      id: userId,
      accountType: ACCOUNT_TYPE.shipper,
      status: PROFILE_STATUS.approved,
      isFirstTimeApproved: true,
      companyName: 'Bench Co',
      activeSubscriptionId: 'x',
    };
    await container.services.webhooks.create(user, { url: `http://127.0.0.1:${(rx.address() as { port: number }).port}/hook`, events: ['load.posted'] });
    const ms: number[] = [];
    const loadId = newId();
    for (let i = 0; i < EVENTS + 10; i++) {
      const done = new Promise<void>((r) => (notify = r));
      let id = '';
      await database.db.transaction(async (tx) => {
        // no load row behind loadId: publish cannot read the parties, so the payload names them (and the status change load.posted requires)
        id = await publish(tx, {
          type: 'load.posted',
          aggregateType: 'load',
          aggregateId: loadId,
          actorId: userId,
          data: { loadId, referenceId: `SHP-26-B${String(i).padStart(5, '0')}`, shipperId: userId, status: { from: 'unposted', to: 'posted' } },
        });
      });
      const committed = performance.now();
      while (!arrived.has(id)) await done;
      if (i >= 10) ms.push(arrived.get(id)! - committed);
    }
    console.log(
      `${engine.padEnd(8)} event committed → signed POST received: p50 ${pct(ms, 50).toFixed(1)} ms | p95 ${pct(ms, 95).toFixed(1)} ms | max ${Math.max(...ms).toFixed(1)} ms (n=${ms.length})`,
    );
  } finally {
    await container.close();
    await new Promise<void>((r) => rx.close(() => r()));
    await drop();
  }
}

const engines = await enginesToRun();
console.log(`Webhook delivery latency, ${EVENTS} events one at a time, engines: ${engines.join(', ')}`);
for (const e of engines) await run(e);
