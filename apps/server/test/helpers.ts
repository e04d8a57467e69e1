import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, PGLITE_EXTENSIONS, type Database } from '../src/db/client.ts';
import { withDatabase } from './global-setup.ts';

export const ENGINE = (process.env.TEST_DB_ENGINE ?? 'pglite') as 'pglite' | 'postgres';

/**
 * Bytes handed to PGlite as a Blob: PGlite only calls `arrayBuffer()` on its `loadDataDir` and
 * `fsBundle`, and Node's Blob assembles that from 64 KB stream chunks (about 1 s of CPU for the
 * 68 MB template). Each call gets its own copy, so no database shares memory with another.
 */
class BytesBlob extends Blob {
  readonly #data: Uint8Array<ArrayBuffer>;
  constructor(data: Uint8Array<ArrayBuffer>) {
    super([]);
    this.#data = data;
  }
  override get size() {
    return this.#data.byteLength;
  }
  override arrayBuffer() {
    return Promise.resolve(this.#data.slice().buffer);
  }
}

/**
 * What every PGlite test database starts from, loaded once per worker: the migrated template's
 * dump (global-setup.ts), PGlite's WebAssembly module compiled once and its file-system bundle.
 * Issue 51: a test file's database cost 2.3 s of CPU (Blob reads of the dump and bundle, the
 * 9 MB module compiled and tiered up again), now about 1 s (measured with process.cpuUsage around
 * PGlite.create, 6 runs each).
 */
let artifacts: Promise<{ template: Uint8Array<ArrayBuffer>; pgliteWasmModule: WebAssembly.Module; bundle: Uint8Array<ArrayBuffer> }> | undefined;
const pgliteArtifacts = () =>
  (artifacts ??= (async () => {
    const dist = dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
    const bytes = async (file: string) => new Uint8Array(await readFile(file));
    const [template, wasm, bundle] = await Promise.all([bytes(inject('pgliteTemplate')), bytes(join(dist, 'pglite.wasm')), bytes(join(dist, 'pglite.data'))]);
    return { template, pgliteWasmModule: await WebAssembly.compile(wasm), bundle };
  })());

/** A PGlite on a copy of the migrated template: in memory, or in `dataDir` (for child servers to open). */
export async function pgliteFromTemplate(dataDir?: string): Promise<PGlite> {
  const { template, pgliteWasmModule, bundle } = await pgliteArtifacts();
  return PGlite.create({ dataDir, loadDataDir: new BytesBlob(template), fsBundle: new BytesBlob(bundle), pgliteWasmModule, extensions: PGLITE_EXTENSIONS });
}

/**
 * A fresh database for one test file: a clone of the migrated template with reference data. On
 * PostgreSQL `url` is its connection string (for server processes the test starts).
 */
export async function createTestDatabase(): Promise<Database & { url?: string }> {
  if (ENGINE === 'pglite') {
    return openDatabase({ pglite: await pgliteFromTemplate() });
  }
  const url = process.env.TEST_DATABASE_URL!;
  const name = `masar_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject('pgTemplate')}`);
  await admin.end();
  const database: Database & { url?: string } = await openDatabase({ databaseUrl: withDatabase(url, name), poolMax: 20 });
  database.url = withDatabase(url, name);
  const close = database.close.bind(database);
  database.close = async () => {
    await close();
    const a = new pg.Client({ connectionString: url });
    await a.connect();
    // pg-pool's end() resolves before its sockets close; dropping WITH (FORCE) at once kills those
    // backends and their clients emit an unhandled FATAL 57P01 that fails the run. Wait for them.
    for (let i = 0; i < 40; i++) {
      const [{ n }] = (await a.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name])).rows;
      if (n === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await a.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await a.end();
  };
  return database;
}

export interface TestContext {
  app: App;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/**
 * Build the app on a fresh test database (no demo seed, silent logs, sandbox gateways) with the
 * job worker running (jobs and outbox delivery as in production; `JOBS: false` to leave it off).
 * `opts.database`: run on that database instead (e.g. a primary with a read replica).
 */
export async function createTestApp(overrides: Partial<Config> = {}, opts: { database?: Database } = {}): Promise<TestContext> {
  const database = opts.database ?? (await createTestDatabase());
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO_SEED: '0', DATA_DIR: 'memory://', WEB_DIST: '/nonexistent', DEV_OUTBOX: '1' },
    { jwtSecret: 'test-secret-test-secret-test-secret-0123456789', ...overrides },
  );
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  await app.container.jobs.start();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
