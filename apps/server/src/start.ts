/**
 * The server process: open the database, migrate, build the app, listen, start the jobs.
 * Imported by main.ts once the Node.js version is checked (issue 48); run main.ts, not this file.
 */
import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { loadReferenceData } from './db/seed/reference.ts';
import { seedDemo } from './seed/demo.ts';

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  readUrl: config.DATABASE_URL ? config.DATABASE_READ_URL : undefined,
  dataDir: config.dataDir,
});
const applied = await migrate(database);
await loadReferenceData(database.db);
const app = await buildApp({ config, database });
if (config.DEMO_SEED) await seedDemo(app.container);
if (applied.length) app.log.info({ applied }, 'migrations applied');

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  await app.close().catch(() => undefined);
  await database.close().catch(() => undefined);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.PORT, host: config.HOST });
// not silent: generated VAPID keys are per data directory, so several instances must set theirs (README)
if (config.vapid.generated && config.NODE_ENV === 'production')
  app.log.warn(
    `web push signs with the VAPID keys kept in ${config.dataDir}/vapid-keys.json; set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when running several instances`,
  );
// durable jobs and event delivery (JOBS=0: this instance only enqueues)
await app.container.jobs.start();
app.log.info(`Masar on http://localhost:${config.PORT} (database: ${database.engine}${config.DATABASE_URL ? '' : `, data dir ${config.dataDir}`})`);
