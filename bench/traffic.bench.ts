/**
 * The board under realistic traffic (issue 24): `npm run bench:traffic`.
 *
 * ENGINE=postgres (default; SCALE 1m) or pglite (SCALE 100k). The data is bench/search.bench.ts's
 * seed, reused with KEEP_DB=1 (`masar_bench_<n>`; BENCH_DB_NAME names another database of the same
 * seed, e.g. bench:trucks' `masar_bench_trucks_1000000`). The server is the product as production
 * runs it (benchApp: NODE_ENV production, the default 5 s page cache, prepared statements) with its
 * jobs on (JOBS=0 turns them off), in this process; autocannon drives it from a worker thread.
 *
 * Scenarios — every request draws from a pool of randomised URLs, never one repeated URL:
 * - `pooled`: POOL (500) popular searches (hub-weighted pickup city, 50–500 km, a third with an
 *   equipment type, newest first), drawn at random: the cache's case;
 * - `distinct`: every request a new search (pickup city by weight, 50–500 km, equipment half the
 *   time, a pickup window a third of the time, any of the five sorts), in order: pure misses;
 * - `page1`: the unfiltered board, page 1, any sort, 20/25/50 per page;
 * - `deep`: pages 2–8 of distinct searches by the cursor the API handed out;
 * - `wide`: 1,000 km around a random city, any sort, ± equipment;
 * - `lane`: a `distinct` search with a drop city by hub weight: half as the home page sends it (200 km
 *   on both sides), half with the drop city exact or 100–300 km; every request a new search (not in the mix);
 * - `details`: GET /loads/:id of a random open load (signed in as the carrier);
 * - `mine`: GET /my-loads, posted or offers tab, as one of 20 shippers;
 * - `mix`: pooled 40, distinct 15, page1 10, deep 10, wide 5, details 15, mine 5 (per 100 requests).
 * Each runs DURATION (20) s at CONNECTIONS (10), with a background of WRITES (list, default "1,5")
 * board writes per second (unpost, and repost 5 s later, of random open loads of the two biggest
 * shippers, through the API). `distinct` also runs at 1 connection: the cold-path latency.
 *
 * Figures per scenario: req/s, HTTP p50/p95/p99 ms, board cache hits/misses (boardCacheStats),
 * writes done, server CPU (this process's main thread: the server and, on PGlite, the database)
 * and PostgreSQL CPU (every `postgres` process, /proc) in % of one core, RSS. The raw-SQL anchor:
 * 100 statements of the `distinct` distribution as the board search builds them for a custom plan
 * (with their values as literals, so planned for them; production runs per-place, nearest and
 * capped walks with their generic plans, boardPlanOf), serial p50/p95 through the
 * driver and, on PostgreSQL, `pgbench -M simple` at 1 and CONNECTIONS connections. SOAK=<n> then
 * runs the mix n more times, SOAK_DURATION (default DURATION) s each (60: minutes), with 1 write/s,
 * and prints RSS after each. SERVER=child (PostgreSQL) runs the
 * server as its own process (apps/server/src/main.ts, production mode): server CPU and RSS are then
 * that process's alone (hits and misses are not read), with the product's V8 flags (package.json
 * config.nodeFlags, as `npm start` passes them); CHILD_NODE_FLAGS (space-separated) gives it other
 * Node/V8 flags instead, e.g. "" for V8's defaults. Prints figures; never asserts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PgDialect } from 'drizzle-orm/pg-core';
import { boardCircles, boardPathOf, boardSearchSql } from '../apps/server/src/modules/loads/board.repository.ts';
import { boardCacheStats } from '../apps/server/src/modules/loads/board.service.ts';
import { startChildServer } from '../apps/server/test/crash-child.ts';
import { BENCH_JWT_SECRET, benchApp, benchEnv, percentile as pct, pgUrl, scaleOf, withDb, type Engine, qs } from './lib.ts';
import { BOARD_SORTS as SORTS, EQUIPMENT, HUB_WEIGHTS, openBench, pick as rnd, randomDistinctSearch as randomSearch } from './search.bench.ts';

const ENGINE = (process.env.ENGINE ?? 'postgres') as Engine;
const N = scaleOf(process.env.SCALE ?? (ENGINE === 'pglite' ? '100k' : '1m'));
const DURATION = Number(process.env.DURATION ?? 20);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const POOL = Number(process.env.POOL ?? 500);
const WRITES = (process.env.WRITES ?? '1,5').split(',').map(Number);
const SOAK = Number(process.env.SOAK ?? 0);
const SOAK_DURATION = Number(process.env.SOAK_DURATION ?? DURATION);
const ONLY = process.env.ONLY?.split(',');
const uid = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const OWNER_MOST = uid(1);
const CARRIER = uid(3);
const log = (s: string) => process.stderr.write(`${s}\n`);
const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '–');

type Path = string | { path: string; token: string };

/**
 * CPU seconds (user + system) of every process whose name starts with `postgres` (Linux /proc),
 * with the CPU of the postmaster's ended children (its cutime + cstime): a backend that exits
 * during a run (the seed's connections, a closed pool) keeps its seconds in the sum, which would
 * otherwise fall and give a negative CPU %.
 */
function postgresCpuS(): number {
  let s = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const p = procCpu(pid);
      if (p.name.startsWith('postgres')) s += p.cpuS + p.childrenS;
    } catch {
      // the process ended while we read
    }
  }
  return s;
}

interface Run {
  scenario: string;
  writesPerS: number;
  connections: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  hits: number;
  misses: number;
  writes: number;
  serverCpu: number;
  pgCpu: number;
  rssMb: number;
}

/** A process's name, CPU seconds (user + system, every thread) and its ended children's, from /proc/<pid>/stat (Linux). */
function procCpu(pid: number | string): { name: string; cpuS: number; childrenS: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const close = stat.lastIndexOf(')');
  const f = stat.slice(close + 2).split(' ');
  return {
    name: stat.slice(stat.indexOf('(') + 1, close),
    cpuS: (Number(f[11]) + Number(f[12])) / 100, // utime, stime (fields 14 and 15)
    childrenS: (Number(f[13]) + Number(f[14])) / 100, // cutime, cstime of waited-for children (fields 16 and 17)
  };
}

/** A process's resident memory in MB, from /proc/<pid>/status. */
const procRssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

async function main() {
  const { database, cleanup } = await openBench(ENGINE, N);
  const jobsOn = process.env.JOBS !== '0';
  const inChild = process.env.SERVER === 'child';
  if (inChild && ENGINE !== 'postgres') throw new Error('SERVER=child needs ENGINE=postgres');
  // in process: the server itself; with SERVER=child: only the token signer (jobs off, no traffic)
  const { app, origin: ownOrigin, tokenFor } = await benchApp(database, { JOBS: jobsOn && !inChild ? '1' : '0' });
  // as main.ts does: the durable jobs (expiry every minute, the outbox, maintenance) on the same pool
  if (jobsOn && !inChild) await app.container.jobs.start();
  // SERVER=child: the product's own entry point (main.ts) in a process of its own, as production
  // starts it (its jobs on unless JOBS=0): its RSS and CPU are the server's alone, not shared with
  // autocannon and the URL pools
  const child = inChild
    ? await startChildServer(
        Object.fromEntries(
          Object.entries(
            benchEnv({
              DATABASE_URL: withDb(pgUrl, process.env.BENCH_DB_NAME ?? `masar_bench_${N}`),
              JWT_SECRET: BENCH_JWT_SECRET,
              JOBS: jobsOn ? '1' : '0',
              LOG_LEVEL: 'info',
            }),
          ).filter((e): e is [string, string] => e[1] !== undefined),
        ),
        // the product's own V8 flags (package.json config.nodeFlags, as `npm start` and `npm run serve`
        // pass them) unless CHILD_NODE_FLAGS says otherwise
        { nodeFlags: (process.env.CHILD_NODE_FLAGS ?? process.env.npm_package_config_nodeFlags)?.split(' ').filter(Boolean) },
      )
    : null;
  const origin = child?.url ?? ownOrigin;
  if (child) log(`server: child process ${child.child.pid} at ${origin}`);
  try {
    const cityIds = (await database.query<{ id: number }>('select id from cities order by id')).map((c) => Number(c.id));
    const weighted = cityIds.flatMap((id) => Array.from({ length: HUB_WEIGHTS[id] ?? 1 }, () => id));
    const hubs = Object.keys(HUB_WEIGHTS).map(Number);
    const [ownerToken, carrierToken] = [await tokenFor(OWNER_MOST), await tokenFor(CARRIER)];
    const shipperTokens = await Promise.all(Array.from({ length: 20 }, (_, i) => tokenFor(uid(100 + i))));

    log('building the URL pools…');
    const pooled: Path[] = [];
    for (let i = 0; pooled.length < POOL; i++) {
      const q = {
        pickupCityId: rnd(hubs),
        radius: rnd([50, 100, 200, 300, 500]),
        equipmentType: Math.random() < 1 / 3 ? rnd(EQUIPMENT) : undefined,
        sort: 'newest',
      };
      const p = `/api/v1/loads?${qs(q)}`;
      if (!pooled.includes(p)) pooled.push(p);
    }
    const distinctQueries = Array.from({ length: 60_000 }, () => randomSearch(weighted));
    const distinct: Path[] = distinctQueries.map((q) => `/api/v1/loads?${qs(q)}`);
    const page1: Path[] = SORTS.filter((s) => s !== 'deadhead').flatMap((sort) => [20, 25, 50].map((limit) => `/api/v1/loads?${qs({ sort, limit })}`));
    const wide: Path[] = Array.from({ length: 2_000 }, () => {
      const q = { pickupCityId: rnd(weighted), radius: 1000, equipmentType: Math.random() < 0.3 ? rnd(EQUIPMENT) : undefined, sort: rnd(SORTS) };
      return `/api/v1/loads?${qs(q)}`;
    });
    // lanes: pickup and drop city by hub weight, 200 km on both sides as the home page sends, or
    // any radius with the drop city exact or 100–300 km; every request a new search
    const lane: Path[] = Array.from({ length: 20_000 }, () => {
      const home = Math.random() < 0.5;
      const q = {
        ...randomSearch(weighted),
        ...(home ? { radius: 200 } : {}),
        dropCityId: rnd(weighted),
        dropRadius: home ? 200 : rnd([0, 100, 200, 300]) || undefined,
      };
      return `/api/v1/loads?${qs(q)}`;
    });
    // deep pages: follow the cursor the API hands out from page 1 of distinct searches
    const deep: Path[] = [];
    for (let i = 0; deep.length < 600 && i < 400; i++) {
      const q = randomSearch(hubs);
      let cursor: string | null | undefined;
      for (let page = 1; page <= 8; page++) {
        const r = await fetch(`${origin}/api/v1/loads?${qs({ ...q, cursor: cursor ?? undefined })}`, { headers: { authorization: `Bearer ${carrierToken}` } });
        const body = (await r.json()) as { data: { nextCursor?: string | null } };
        cursor = body.data?.nextCursor;
        if (!cursor) break;
        deep.push(`/api/v1/loads?${qs({ ...q, cursor })}`);
      }
    }
    const open = await database.query<{ id: string; shipper_id: string }>(
      `select id, shipper_id from loads tablesample system (2) where status = 'posted' and expires_at > now() + interval '2 days' limit 20000`,
    );
    const details: Path[] = open.slice(0, 5000).map((l) => ({ path: `/api/v1/loads/${l.id}`, token: carrierToken }));
    // the writer takes the other end of the sample (loads of the two biggest shippers), so details seldom meet an unposted load
    // reposting needs an active plan (spec §9): the writing shippers have one
    for (const u of [OWNER_MOST, uid(2)])
      await database.query(
        `insert into subscriptions (id, user_id, plan_code, plan_name, active) select gen_random_uuid(), $1, 'bench', 'Bench plan', true
         where not exists (select 1 from subscriptions where user_id = $1 and plan_code = 'bench')`,
        [u],
      );
    const ownerTokens = new Map([
      [OWNER_MOST, ownerToken],
      [uid(2), await tokenFor(uid(2))],
    ]);
    // pop() takes from the end: the details pool is the first 5,000 of the sample
    const writable = open.filter((l) => ownerTokens.has(l.shipper_id));
    const mine: Path[] = shipperTokens.flatMap((token) => ['posted', 'offers'].map((tab) => ({ path: `/api/v1/my-loads?tab=${tab}`, token })));
    const mixOf = (n: number): Path[] => {
      const parts: [Path[], number][] = [
        [pooled, 40],
        [distinct.slice(30_000), 15],
        [page1, 10],
        [deep, 10],
        [wide, 5],
        [details, 15],
        [mine, 5],
      ];
      const out: Path[] = [];
      for (let i = 0; i < n; i++) {
        let x = Math.random() * 100;
        for (const [pool, w] of parts) {
          if ((x -= w) < 0) {
            out.push(pool === parts[1][0] ? pool[i % pool.length] : rnd(pool));
            break;
          }
        }
      }
      return out;
    };
    const scenarios: { key: string; paths: Path[]; inOrder?: boolean }[] = [
      { key: 'pooled', paths: pooled },
      { key: 'distinct', paths: distinct, inOrder: true },
      { key: 'page1', paths: page1 },
      { key: 'deep', paths: deep, inOrder: true },
      { key: 'wide', paths: wide },
      { key: 'lane', paths: lane, inOrder: true },
      { key: 'details', paths: details },
      { key: 'mine', paths: mine },
      { key: 'mix', paths: mixOf(100_000), inOrder: true },
    ].filter((s) => !ONLY || ONLY.includes(s.key));
    log(
      `pools: pooled ${pooled.length}, distinct ${distinct.length}, deep ${deep.length}, wide ${wide.length}, lane ${lane.length}, details ${details.length}`,
    );

    // background writes: unpost a random open load of the biggest shipper, repost it 5 s later
    let writeRate = 0;
    let writes = 0;
    let writeErrors = 0;
    const unposted: { id: string; shipper_id: string; at: number }[] = [];
    let stopWriter = false;
    const writer = (async () => {
      while (!stopWriter) {
        await new Promise((r) => setTimeout(r, writeRate ? 1000 / writeRate : 200));
        if (!writeRate || stopWriter) continue;
        const due = unposted[0] && Date.now() - unposted[0].at > 5_000 ? unposted.shift() : undefined;
        const target = due ?? writable.pop();
        if (!target) continue;
        const r = await fetch(`${origin}/api/v1/loads/${target.id}/${due ? 'repost' : 'unpost'}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ownerTokens.get(target.shipper_id)}`, 'content-type': 'application/json' },
          body: '{}',
        });
        if (r.ok) {
          await r.arrayBuffer();
          writes++;
          if (!due) unposted.push({ ...target, at: Date.now() });
        } else if (writeErrors++ === 0) log(`a write failed: ${due ? 'repost' : 'unpost'} ${r.status} ${await r.text().catch(() => '')}`);
      }
    })();

    const cursors = new Map<string, number>();
    const runOne = async (s: (typeof scenarios)[number], connections: number, writesPerS: number, duration = DURATION): Promise<Run> => {
      if (!s.paths.length) throw new Error(`scenario ${s.key} has no URLs (too few loads seeded?)`);
      writeRate = writesPerS;
      // an in-order pool resumes where its last run stopped: a URL of `distinct` is asked once
      const start = s.inOrder ? (cursors.get(s.key) ?? 0) : 0;
      const paths = s.inOrder ? [...s.paths.slice(start), ...s.paths.slice(0, start)] : s.paths;
      const before = {
        ...boardCacheStats,
        writes,
        cpu: process.threadCpuUsage(),
        childCpu: child ? procCpu(child.child.pid!).cpuS : 0,
        pg: ENGINE === 'postgres' ? postgresCpuS() : 0,
        t: performance.now(),
      };
      const r = await new Promise<{ latencies: number[]; total: number; non2xx: number; errors: number; seconds: number }>((res, rej) => {
        const w = new Worker(new URL('./load-worker.mjs', import.meta.url), {
          // board searches as the carrier (a signed-in user; the cache serves every viewer without blocks)
          workerData: { url: origin, paths, inOrder: s.inOrder, token: carrierToken, connections, duration },
        });
        w.once('message', res);
        w.once('error', rej);
      });
      if (s.inOrder) cursors.set(s.key, (start + r.total) % s.paths.length);
      const wall = (performance.now() - before.t) / 1000;
      const cpu = process.threadCpuUsage(before.cpu);
      const lat = r.latencies.sort((a, b) => a - b);
      return {
        scenario: s.key,
        writesPerS,
        connections,
        rps: r.latencies.length / wall,
        p50: pct(lat, 50),
        p95: pct(lat, 95),
        p99: pct(lat, 99),
        non2xx: r.non2xx + r.errors,
        // the child's cache counters are its own (not read): hits and misses show as –
        hits: child ? NaN : boardCacheStats.hits - before.hits,
        misses: child ? NaN : boardCacheStats.misses - before.misses + (boardCacheStats.bypass - before.bypass),
        writes: writes - before.writes,
        serverCpu: child ? ((procCpu(child.child.pid!).cpuS - before.childCpu) / wall) * 100 : ((cpu.user + cpu.system) / 1e6 / wall) * 100,
        pgCpu: ENGINE === 'postgres' ? ((postgresCpuS() - before.pg) / wall) * 100 : NaN,
        rssMb: child ? procRssMb(child.child.pid!) : process.memoryUsage().rss / 2 ** 20,
      };
    };

    const runs: Run[] = [];
    // warm-up: the pooled searches once each, the other pools briefly (not counted)
    for (const p of pooled.slice(0, 100))
      await (await fetch(`${origin}${p as string}`, { headers: { authorization: `Bearer ${carrierToken}` } })).arrayBuffer();
    const distinctScenario = scenarios.find((s) => s.key === 'distinct');
    if (distinctScenario) {
      log('distinct, 1 connection…');
      runs.push(await runOne(distinctScenario, 1, 0));
    }
    for (const w of WRITES) {
      for (const s of scenarios) {
        log(`${s.key}, ${CONNECTIONS} connections, ${w} write/s…`);
        runs.push(await runOne(s, CONNECTIONS, w));
      }
    }

    // the raw-SQL anchor: statements of the distinct distribution as the board search sends them
    log('raw SQL anchor…');
    const dialect = new PgDialect();
    const statements: string[] = [];
    for (const q of distinctQueries.slice(0, 100)) {
      const circles = await boardCircles(database.db, q);
      const { sql: text, params } = dialect.sqlToQuery(boardSearchSql(q, [], { path: boardPathOf(q, circles.circle?.n), plan: 'custom', ...circles }));
      statements.push(text.replace(/\$(\d+)/g, (_, i) => literal(params[Number(i) - 1])));
    }
    const serial: number[] = [];
    for (let pass = 0; pass < 3; pass++)
      for (const st of statements) {
        const t = performance.now();
        await database.query(st);
        serial.push(performance.now() - t);
      }
    serial.sort((a, b) => a - b);
    const pgbench = ENGINE === 'postgres' ? runPgbench(statements) : null;

    console.log(
      `\nBoard traffic at ${N.toLocaleString('en')} loads (${ENGINE}), ${DURATION} s per run, jobs ${jobsOn ? 'on' : 'off'}, page cache TTL ${process.env.SEARCH_CACHE_TTL_MS ?? 5000} ms; writes done ${writes} (failed ${writeErrors})`,
    );
    console.log(
      '| scenario | conns | writes/s | req/s | p50 / p95 / p99 ms | cache hits / misses | writes | server CPU % | PostgreSQL CPU % | RSS MB | non-2xx |',
    );
    console.log('| --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |');
    for (const r of runs)
      console.log(
        `| ${r.scenario} | ${r.connections} | ${r.writesPerS} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} / ${fmt(r.p95)} / ${fmt(r.p99)} | ${fmt(r.hits, 0)} / ${fmt(r.misses, 0)} | ${r.writes} | ${fmt(r.serverCpu, 0)} | ${fmt(r.pgCpu, 0)} | ${fmt(r.rssMb, 0)} | ${r.non2xx} |`,
      );
    console.log(`\nRaw SQL anchor (100 board statements of the distinct distribution, values as literals: custom plans):`);
    console.log(`- serial through the driver, 3 passes: p50 ${fmt(pct(serial, 50), 2)} ms, p95 ${fmt(pct(serial, 95), 2)} ms`);
    if (pgbench)
      for (const b of pgbench)
        console.log(`- pgbench -M simple, ${b.clients} connection(s), ${DURATION} s: ${fmt(b.tps, 0)} statements/s, mean latency ${fmt(b.latencyMs, 2)} ms`);
    const cold = runs.find((r) => r.scenario === 'distinct' && r.connections === 1);
    if (cold) console.log(`- API on a miss, 1 connection: p50 ${fmt(cold.p50, 2)} ms → ${fmt(cold.p50 / pct(serial, 50), 2)}× the serial SQL p50`);

    if (SOAK > 0) {
      const mix = scenarios.find((s) => s.key === 'mix')!;
      console.log(`\nSoak: the mix ${SOAK} × ${SOAK_DURATION} s at ${CONNECTIONS} connections, 1 write/s`);
      const soakStart = performance.now();
      for (let m = 1; m <= SOAK; m++) {
        const r = await runOne({ ...mix }, CONNECTIONS, 1, SOAK_DURATION);
        const min = (performance.now() - soakStart) / 60_000;
        console.log(`- run ${m}, ${fmt(min, 1)} min: ${fmt(r.rps, 0)} req/s, p95 ${fmt(r.p95)} ms, RSS ${fmt(r.rssMb, 0)} MB`);
      }
    }
    stopWriter = true;
    await writer;
  } finally {
    await child?.stop();
    await app.close();
    await cleanup();
  }
}

/** A bound value as an SQL literal (what the driver would send as a parameter). */
function literal(v: unknown): string {
  if (v == null) return 'null';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof Date) return `'${v.toISOString()}'`;
  if (Array.isArray(v)) return `'{${v.map((x) => `"${String(x).replace(/["\\]/g, '\\$&')}"`).join(',')}}'`;
  return `'${(typeof v === 'string' ? v : JSON.stringify(v)).replace(/'/g, "''")}'`;
}

/** pgbench over the statements (one script each, equal weight), at 1 and CONNECTIONS clients. */
function runPgbench(statements: string[]): { clients: number; tps: number; latencyMs: number }[] {
  const dir = mkdtempSync(join(tmpdir(), 'masar-pgbench-'));
  try {
    const files = statements.map((st, i) => {
      const f = join(dir, `s${i}.sql`);
      // one line: comments out, whitespace folded (pgbench reads a script line by line)
      writeFileSync(f, `${st.replace(/--[^\n]*/g, '').replace(/\s+/g, ' ')};\n`);
      return f;
    });
    const url = new URL(withDb(pgUrl, process.env.BENCH_DB_NAME ?? `masar_bench_${N}`));
    return [1, CONNECTIONS].map((clients) => {
      const out = execFileSync(
        'pgbench',
        [
          '-n',
          '-M',
          'simple',
          '-c',
          String(clients),
          '-j',
          String(Math.min(clients, 2)),
          '-T',
          String(DURATION),
          ...files.flatMap((f) => ['-f', f]),
          '-h',
          url.hostname,
          '-p',
          url.port || '5432',
          '-U',
          url.username || 'postgres',
          url.pathname.slice(1),
        ],
        // the sessions as the product's pools open them (db/client.ts: no JIT compilation)
        { encoding: 'utf8', maxBuffer: 64 * 2 ** 20, env: { ...process.env, PGOPTIONS: '-c jit=off' } },
      );
      const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
      const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1]);
      return { clients, tps, latencyMs };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
