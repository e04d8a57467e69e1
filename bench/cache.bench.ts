/**
 * The board cache under writes (issue 24): `npm run bench:cache`.
 *
 * A pool of POOL (500) popular searches — hub-weighted pickup cities, no radius or 50–500 km, a
 * third with an equipment filter, newest first — drawn uniformly by CONNECTIONS (10) concurrent
 * clients through the board service (`searchJson`, the code GET /loads runs; in-process memory
 * cache, SEARCH_CACHE_TTL_MS default 5 s; each search of the pool is cached once first, uncounted)
 * for DURATION seconds (60), with a background of WRITES
 * (1) board writes per second: a random open load is unposted through transition() and its
 * places bumped, as the API does. Run twice on the same data:
 * - `global`: every page keyed on the whole-board version (kind 9, which every write bumps): the
 *   one global version the cache had before issue 24;
 * - `places`: every page keyed on the versions of the places it covers (production).
 * Prints requests, searches that reached the database (misses; single-flighted misses count
 * once), hit rate and req/s per mode. Data: N (100,000) loads of bench/search.bench.ts's seed on
 * PostgreSQL in database `masar_bench_h24cache` (BENCH_DATABASE_URL's server), dropped after
 * unless KEEP_DB=1. Prints figures; never asserts.
 */
import pg from 'pg';
import { openDatabase, type Database } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { memoryBoardCache } from '../apps/server/src/lib/page-cache.ts';
import { createBoardSearch } from '../apps/server/src/modules/loads/board.service.ts';
import { searchBoard, type BoardQuery } from '../apps/server/src/modules/loads/board.repository.ts';
import { boardPageVersion, bumpBoardLoads } from '../apps/server/src/modules/loads/loads.repository.ts';
import { transition } from '../apps/server/src/modules/loads/lifecycle.ts';
import { pgUrl, withDb } from './lib.ts';
import { EQUIPMENT, HUB_WEIGHTS, seed } from './search.bench.ts';

const N = Number(process.env.N ?? 100_000);
const POOL = Number(process.env.POOL ?? 500);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const DURATION = Number(process.env.DURATION ?? 60);
const WRITES = Number(process.env.WRITES ?? 1);
const TTL = Number(process.env.SEARCH_CACHE_TTL_MS ?? 5_000);
const NAME = 'masar_bench_h24cache';
const log = (s: string) => process.stderr.write(`${s}\n`);

/** A deterministic pseudo-random sequence (the same pool in both modes). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function open(): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  const url = withDb(pgUrl, NAME);
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [NAME])).rowCount === 1;
  let reuse = false;
  if (exists && process.env.KEEP_DB) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    reuse = await c
      .query<{ n: number }>('select n from bench_meta')
      .then((r) => r.rows[0]?.n === N)
      .catch(() => false);
    await c.end();
  }
  if (!reuse) {
    await admin.query(`drop database if exists ${NAME} with (force)`);
    await admin.query(`create database ${NAME}`);
    const su = new pg.Client({ connectionString: url });
    await su.connect();
    await su.query('create extension if not exists cube; create extension if not exists earthdistance;');
    await su.end();
  }
  await admin.end();
  const database = await openDatabase({ databaseUrl: url, poolMax: 10 });
  if (reuse) {
    await migrate(database);
    log(`reusing ${NAME}`);
  } else {
    log(`seeding ${N.toLocaleString('en')} loads into ${NAME}…`);
    const t0 = performance.now();
    await seed(database, N);
    log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  return {
    database,
    cleanup: async () => {
      await database.close();
      if (process.env.KEEP_DB) return;
      const a = new pg.Client({ connectionString: pgUrl });
      await a.connect();
      await a.query(`drop database if exists ${NAME} with (force)`);
      await a.end();
    },
  };
}

/** POOL distinct searches: pickup city by hub weight, radius, a third with an equipment type. */
function searchPool(cityIds: number[]): BoardQuery[] {
  const r = rng(24);
  const weighted = cityIds.flatMap((id) => Array.from({ length: HUB_WEIGHTS[id] ?? 1 }, () => id));
  const radii = [undefined, 50, 100, 200, 300, 500];
  const seen = new Map<string, BoardQuery>();
  while (seen.size < POOL) {
    const q: BoardQuery = {
      pickupCityId: weighted[Math.floor(r() * weighted.length)],
      radius: radii[Math.floor(r() * radii.length)],
      equipmentType: r() < 1 / 3 ? EQUIPMENT[Math.floor(r() * EQUIPMENT.length)] : undefined,
      sort: 'newest',
      limit: 20,
      skip: 0,
    };
    seen.set(JSON.stringify(q), q);
  }
  return [...seen.values()];
}

async function run(database: Database, pool: BoardQuery[], mode: 'global' | 'places') {
  let searches = 0;
  const svc = createBoardSearch({
    readDb: database.readDb,
    cache: memoryBoardCache(100_000),
    cacheTtlMs: TTL,
    hiddenFrom: () => Promise.resolve([]),
    searchPage: (...a) => {
      searches++;
      return searchBoard(...a);
    },
    pageVersion: mode === 'global' ? (db) => boardPageVersion(db, {}) : boardPageVersion,
  });
  // warm: every search of the pool cached once before the clock starts (not counted)
  for (const q of pool) await svc.searchJson(q, null);
  searches = 0;
  const open = await database.query<{ id: string; shipper_id: string }>(
    `select id, shipper_id from loads where status = 'posted' and expires_at > now() order by md5(id::text) limit 5000`,
  );
  let writes = 0;
  let stop = false;
  const writer = (async () => {
    while (!stop) {
      await new Promise((res) => setTimeout(res, 1000 / WRITES));
      if (stop) break;
      const l = open.pop()!;
      await database.db.transaction(async (tx) => {
        await transition(tx, l.id, 'unpost', l.shipper_id);
        await bumpBoardLoads(tx, [l.id]);
      });
      writes++;
    }
  })();
  let requests = 0;
  const r = rng(mode === 'global' ? 1 : 2);
  const until = performance.now() + DURATION * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        await svc.searchJson(pool[Math.floor(r() * pool.length)], null);
        requests++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  stop = true;
  await writer;
  return { mode, requests, searches, writes, seconds, hitRate: 1 - searches / requests, rps: requests / seconds };
}

async function main() {
  const { database, cleanup } = await open();
  try {
    const cities = (await database.query<{ id: number }>('select distinct pickup_city_id as id from loads order by 1')).map((c) => Number(c.id));
    const pool = searchPool(cities);
    const rows = [];
    for (const mode of ['global', 'places'] as const) {
      log(`${mode}: ${DURATION} s, ${CONNECTIONS} clients, ${WRITES} write/s…`);
      rows.push(await run(database, pool, mode));
    }
    console.log(
      `\nBoard cache under writes: ${N.toLocaleString('en')} loads (PostgreSQL), ${pool.length} searches drawn uniformly, ${CONNECTIONS} clients, ${WRITES} write/s, TTL ${TTL} ms, ${DURATION} s per mode`,
    );
    console.log('| version | requests | searches run (misses) | hit rate | req/s | writes |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const x of rows) {
      console.log(`| ${x.mode} | ${x.requests} | ${x.searches} | ${(x.hitRate * 100).toFixed(1)}% | ${x.rps.toFixed(0)} | ${x.writes} |`);
    }
  } finally {
    await cleanup();
  }
}

await main();
