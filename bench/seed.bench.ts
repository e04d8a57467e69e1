/**
 * How long the demo seed takes at startup (`npm start` runs it; issue 18 asked to keep it fast
 * while it publishes every seeded state's events): `npm run bench:seed` seeds a fresh embedded
 * database in a temporary directory; with DATABASE_URL set it seeds that (empty) PostgreSQL
 * database instead. Prints `{engine, seedMs, outboxEvents}`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'masar-seed-bench-'));
process.env.DATA_DIR = dir;
process.env.JOBS = '0';
const { loadConfig } = await import('../apps/server/src/config.ts');
const { buildApp } = await import('../apps/server/src/app.ts');
const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { migrate } = await import('../apps/server/src/db/migrate.ts');
const { loadReferenceData } = await import('../apps/server/src/db/seed/reference.ts');
const { seedDemo } = await import('../apps/server/src/seed/demo.ts');

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
await migrate(database);
await loadReferenceData(database.db);
const app = await buildApp({ config, database });
const t0 = performance.now();
await seedDemo(app.container);
const seedMs = Math.round(performance.now() - t0);
const [r] = await database.query<{ n: number }>('select count(*)::int as n from outbox_events');
console.log(JSON.stringify({ engine: database.engine, seedMs, outboxEvents: r.n }));
await app.close();
await database.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
