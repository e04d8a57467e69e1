/**
 * Where a board miss spends its time on embedded PGlite (issue 24; docs/load-board.md, "Where a
 * PGlite miss spends its time"): `npm run bench:miss`.
 *
 * The server in process (benchApp: production mode, the page cache on, jobs off) over the search
 * bench's PGlite seed (100,000 loads by default, SCALE=10k|100k|1m, reused with KEEP_DB=1). WARM
 * random `distinct` searches (randomDistinctSearch, bench:traffic's distribution: pickup city by
 * hub weight, 50–500 km, equipment half the time, a pickup window a third, any sort) warm the buffers and the prepared
 * statements, then MISSES more are sent one at a time through `app.inject` with a carrier's token:
 * every one a new search, so a cache miss. Each PGlite protocol call is timed and named by its
 * prepared statement (`board`, `board_circle`, … from `preparedName`), or by its text when it runs
 * unnamed (PGlite's `query`: six calls); the Node `fs.fstatSync` and `fs.readSync` calls made
 * meanwhile are counted (Emscripten's NODEFS: `fstat` is `llseek(SEEK_END)`, PostgreSQL asking a
 * relation's size at planning; `read` is a page outside PGlite's shared buffers).
 *
 * Prints: the miss's p50 / p95 / p99 in ms, inside PGlite's calls and outside them; then per
 * statement: the share of misses that ran it, ms, `fstat` and `read` calls each, and ms per miss.
 * PGlite only: on PostgreSQL a miss's statements overlap on the pools (bench:traffic's raw-SQL
 * anchor measures the board statement there).
 */
import { createRequire } from 'node:module';
import type { PGlite } from '@electric-sql/pglite';
import { benchApp, percentile as pct, qs, scaleOf } from './lib.ts';
import { HUB_WEIGHTS, openBench, randomDistinctSearch } from './search.bench.ts';

const N = scaleOf(process.env.SCALE ?? '100k');
const WARM = Number(process.env.WARM ?? 300);
const MISSES = Number(process.env.MISSES ?? 300);
const CARRIER = '00000000-0000-7000-8000-000000000003';
const fmt = (n: number, d = 2) => n.toFixed(d);

/** The Node `fs` module object Emscripten's NODEFS calls (a property read per call, so a wrapper sees them). */
const nodeFs = createRequire(import.meta.url)('fs') as { fstatSync: (...a: unknown[]) => unknown; readSync: (...a: unknown[]) => number };
const fsCalls = { fstat: 0, read: 0 };
for (const k of ['fstatSync', 'readSync'] as const) {
  const orig = nodeFs[k];
  const counter = k === 'fstatSync' ? 'fstat' : 'read';
  nodeFs[k] = ((...a: unknown[]) => {
    fsCalls[counter]++;
    return orig.apply(nodeFs, a);
  }) as never;
}

interface Stat {
  /** misses that ran it at least once */
  misses: number;
  calls: number;
  ms: number;
  fstat: number;
  read: number;
}

/**
 * The statement a protocol buffer runs: the prepared name of its first Parse, Bind or Close (a
 * SET before it is skipped) without its hash (`board_8fda75e74587` → `board`), else the first
 * words of the unnamed statement's text.
 */
function statementOf(buffer: Uint8Array): string {
  const b = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const cstring = (at: number) => b.toString('latin1', at, b.indexOf(0, at));
  for (let at = 0; at + 5 <= b.length; at += 1 + b.readUInt32BE(at + 1)) {
    const type = String.fromCharCode(b[at]);
    const body = at + 5;
    const name = type === 'P' ? cstring(body) : type === 'B' ? cstring(b.indexOf(0, body) + 1) : type === 'C' ? cstring(body + 1) : null;
    if (name) return name.replace(/_[0-9a-f]{12}$/, '');
    if (type === 'P')
      return `unnamed: ${cstring(body + 1)
        .replace(/\s+/g, ' ')
        .slice(0, 60)}`;
  }
  return 'other';
}

async function main() {
  const { database, cleanup } = await openBench('pglite', N);
  const pg = (database.db as unknown as { $client: PGlite }).$client;
  // time every protocol call: the named path calls execProtocol; PGlite's query (unnamed) calls
  // execProtocolRaw six times, counted as one statement
  let current: Map<string, Stat> | null = null;
  let inside = 0;
  let depth = 0;
  const record = (name: string, ms: number, fstat: number, read: number) => {
    if (!current) return;
    const s = current.get(name) ?? { misses: 1, calls: 0, ms: 0, fstat: 0, read: 0 };
    s.calls++;
    s.ms += ms;
    s.fstat += fstat;
    s.read += read;
    current.set(name, s);
    inside += ms;
  };
  const wrap =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>, nameOf: (...a: A) => string) =>
    async (...a: A): Promise<R> => {
      if (depth > 0) return fn(...a);
      depth++;
      const [t, f, r] = [performance.now(), fsCalls.fstat, fsCalls.read];
      try {
        return await fn(...a);
      } finally {
        depth--;
        record(nameOf(...a), performance.now() - t, fsCalls.fstat - f, fsCalls.read - r);
      }
    };
  const client = pg as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const execProtocol = client.execProtocol.bind(pg);
  const query = client.query.bind(pg);
  client.execProtocol = wrap(execProtocol, (b) => statementOf(b as Uint8Array));
  client.query = wrap(query, (text) => `unnamed: ${String(text).replace(/\s+/g, ' ').slice(0, 60)}`);

  const { app, tokenFor } = await benchApp(database, { JOBS: '0' });
  try {
    const token = await tokenFor(CARRIER);
    const cityIds = (await database.query<{ id: number }>('select id from cities order by id')).map((c) => Number(c.id));
    const weighted = cityIds.flatMap((id) => Array.from({ length: HUB_WEIGHTS[id] ?? 1 }, () => id));
    const url = () => `/api/v1/loads?${qs(randomDistinctSearch(weighted))}`;
    const get = async () => {
      const r = await app.inject({ url: url(), headers: { authorization: `Bearer ${token}` } });
      if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body}`);
    };
    process.stderr.write(`warming up: ${WARM} misses…\n`);
    for (let i = 0; i < WARM; i++) await get();
    const totals: number[] = [];
    const insides: number[] = [];
    const stats = new Map<string, Stat>();
    const fs0 = { ...fsCalls };
    for (let i = 0; i < MISSES; i++) {
      current = new Map();
      inside = 0;
      const t = performance.now();
      await get();
      totals.push(performance.now() - t);
      insides.push(inside);
      for (const [k, s] of current) {
        const all = stats.get(k) ?? { misses: 0, calls: 0, ms: 0, fstat: 0, read: 0 };
        stats.set(k, { misses: all.misses + 1, calls: all.calls + s.calls, ms: all.ms + s.ms, fstat: all.fstat + s.fstat, read: all.read + s.read });
      }
      current = null;
    }
    const outside = totals.map((t, i) => t - insides[i]);
    console.log(
      `\nA board miss on PGlite at ${N.toLocaleString('en')} loads: ${MISSES} random distinct searches through app.inject after ${WARM} warm-up ones`,
    );
    console.log(`- the miss: p50 ${fmt(pct(totals, 50))} ms, p95 ${fmt(pct(totals, 95))} ms, p99 ${fmt(pct(totals, 99))} ms`);
    console.log(
      `- inside PGlite's protocol calls: p50 ${fmt(pct(insides, 50))} ms, p95 ${fmt(pct(insides, 95))} ms; outside: p50 ${fmt(pct(outside, 50))} ms, p95 ${fmt(pct(outside, 95))} ms`,
    );
    console.log(`- per miss: ${fmt((fsCalls.fstat - fs0.fstat) / MISSES, 1)} fstat, ${fmt((fsCalls.read - fs0.read) / MISSES, 1)} read calls\n`);
    console.log('| statement | share of misses | calls per miss that ran it | ms each | fstat each | read each | ms per miss |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const [k, s] of [...stats].sort((a, b) => b[1].ms - a[1].ms))
      console.log(
        `| ${k} | ${fmt((100 * s.misses) / MISSES, 0)}% | ${fmt(s.calls / s.misses, 1)} | ${fmt(s.ms / s.calls)} | ${fmt(s.fstat / s.calls, 1)} | ${fmt(s.read / s.calls, 1)} | ${fmt(s.ms / MISSES)} |`,
      );
  } finally {
    await app.close();
    await cleanup();
  }
}

await main();
