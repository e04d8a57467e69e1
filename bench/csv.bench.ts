/**
 * CSV import benchmark (issue 3): `npm run bench:csv`.
 *
 * Env: ROWS comma-separated row counts (default 10000,100000), ENGINE pglite|postgres|both
 * (default both when PostgreSQL is reachable at BENCH_DATABASE_URL or
 * postgres://postgres@127.0.0.1:5432/test, else pglite), BAD fraction of invalid rows (default
 * 0.05).
 *
 * Each engine and size gets a fresh database (PostgreSQL: database masar_bench_csv, dropped and
 * recreated; PGlite: in memory) with migrations and one broker account. A vendors CSV of ROWS
 * rows (BAD of them with an invalid VAT or e-mail) goes through the same path as
 * POST /csv/import after the upload: the CSV service's background job (papaparse, the shared
 * zod schema per row, chunked inserts of valid rows, failed rows stored). Prints parse+validate
 * and insert phases and rows/s; never asserts timings.
 */
import Papa from 'papaparse';
import { ACCOUNT_TYPE, CSV_COLUMNS, PROFILE_STATUS } from '@masar/shared';
import { enginesToRun, freshDatabase } from './lib.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { users } from '../apps/server/src/db/schema/index.ts';
import { createContainer } from '../apps/server/src/container.ts';
import { newId } from '../apps/server/src/lib/ids.ts';
import { parseCsv, validateRow, mapHeaders, rowCells } from '../apps/server/src/modules/csv/csv.convert.ts';

const SIZES = (process.env.ROWS ?? '10000,100000').split(',').map(Number);
const BAD = Number(process.env.BAD ?? 0.05);

function vendorsCsv(n: number): string {
  const cols = CSV_COLUMNS.vendors;
  const every = BAD > 0 ? Math.round(1 / BAD) : 0;
  const data: string[][] = [];
  for (let i = 0; i < n; i++) {
    const bad = every > 0 && i % every === every - 1;
    const r: Record<string, string> = {
      userType: ['shipper', 'carrier', 'tms'][i % 3],
      companyName: `شركة النقل ${i}`,
      vendorName: `Vendor ${i}`,
      phone: `+9665${String(10_000_000 + i).padStart(8, '0')}`,
      email: bad && i % 2 ? 'not-an-email' : `v${i}@bench.sa`,
      jobTitle: 'Operations',
      officeLocations: JSON.stringify([{ cityId: 1 + (i % 50), address: 'Street 1' }]),
      notes: 'Imported by the benchmark',
      crNumber: String(1_010_000_000 + i),
      tlNumber: `TL${String(i).padStart(8, '0')}`,
      vatNumber: bad && !(i % 2) ? '123' : `3${String(i).padStart(14, '0')}`,
      paymentTerms: 'net_30',
      shipmentTypes: 'ftl;reefer',
      regions: '1;2',
      preferredLanguages: 'ar;en',
      preferredContactMethod: 'phone',
      numberOfTrucks: String(i % 40),
      numberOfTrailers: String(i % 30),
      fleetSize: String(i % 40),
      fleetTypes: 'flatbed_trailer',
      equipmentTypes: 'reefer_trailer',
      serviceArea: 'Kingdom-wide',
      insurance: 'Cargo cover',
      rateAgreement: 'Spot',
      pastExperience: '5 years',
      paymentHistory: 'Good',
      customsClearance: i % 2 ? 'yes' : 'no',
    };
    data.push(cols.map((c) => r[c.key] ?? ''));
  }
  return Papa.unparse({ fields: cols.map((c) => c.en), data });
}

async function run(engine: 'pglite' | 'postgres', n: number) {
  const { database, drop } = await freshDatabase(engine, 'masar_bench_csv');
  try {
    const db = database.db;
    const id = newId();
    await db.insert(users).values({
      id,
      accountType: ACCOUNT_TYPE.broker,
      firstName: 'Bench',
      lastName: 'Broker',
      companyName: 'Bench Co',
      email: `${id}@bench.sa`,
      phone: '+966500009999',
      passwordHash: 'x',
      status: PROFILE_STATUS.approved,
      isFirstTimeApproved: true,
    });
    const user = {
      id,
      accountType: ACCOUNT_TYPE.broker,
      status: PROFILE_STATUS.approved,
      isFirstTimeApproved: true,
      companyName: 'Bench Co',
      activeSubscriptionId: null,
    } as const;
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory://', LOG_LEVEL: 'silent' }, { jwtSecret: 'bench-secret-bench-secret-bench-secret-000' });
    // the real composition: the import is the durable 'csv.import' job run by the job worker
    const container = createContainer({ config, database });
    await container.jobs.start();
    const svc = container.services.csv;
    const text = vendorsCsv(n);
    // phase 1 alone (no DB): parse + map + validate
    const t0 = performance.now();
    const parsed = parseCsv(text);
    const { byHeader } = mapHeaders('vendors', parsed.headers);
    let valid = 0;
    for (const raw of parsed.rows) if (validateRow('vendors', rowCells(raw, byHeader)).ok) valid += 1;
    const validateMs = performance.now() - t0;
    // the whole import as the API runs it
    const t1 = performance.now();
    const { id: logId } = await svc.startImport({ ...user }, 'vendors', 'bench.csv', text);
    const acceptedMs = performance.now() - t1;
    let log: { status: string; total: number; succeeded: number; failed: number };
    for (;;) {
      [log] = await database.query<{ status: string; total: number; succeeded: number; failed: number }>(
        'select status, total, succeeded, failed from csv_logs where id = $1',
        [logId],
      );
      if (log.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const totalMs = performance.now() - t1;
    await container.jobs.stop();
    const mb = (Buffer.byteLength(text) / 1024 / 1024).toFixed(1);
    console.log(
      `${engine.padEnd(8)} ${String(n).padStart(7)} rows (${mb} MB): ${log.status}, ${log.succeeded} stored, ${log.failed} failed (${valid} valid) | parse+validate ${(validateMs / 1000).toFixed(2)} s | accepted (log + file stored, job queued) ${(acceptedMs / 1000).toFixed(2)} s | whole import ${(totalMs / 1000).toFixed(2)} s = ${Math.round(n / (totalMs / 1000))} rows/s`,
    );
  } finally {
    await drop();
  }
}

async function main() {
  const engines = await enginesToRun();
  console.log(`CSV vendor import, ${Math.round(BAD * 100)}% bad rows, engines: ${engines.join(', ')}`);
  for (const engine of engines) for (const n of SIZES) await run(engine, n);
}

await main();
