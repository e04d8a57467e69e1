import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';

/**
 * A real server process (apps/server/src/main.ts) for crash tests (issue 22) and bench:traffic's
 * SERVER=child: started on a free port with `env` (LOG_LEVEL info at least: readiness is read from
 * its log) and `nodeFlags` before the entry point, ready once it listens and its job worker runs;
 * `kill()` is kill -9. The server runs on Node's own type stripping (no tsx): about 1 s less CPU per
 * start (import of the server: 2.6-2.7 s CPU against 3.6-3.7 s with `--import tsx`, 2026-12-07);
 * `erasableSyntaxOnly` in apps/server and packages/shared tsconfig keeps the source strippable.
 */
export interface ChildServer {
  url: string;
  child: ChildProcess;
  lines: Record<string, unknown>[];
  exited: Promise<void>;
  /** SIGKILL and wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (graceful: closes the database) and wait. */
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

export async function startChildServer(env: Record<string, string>, opts: { nodeFlags?: string[] } = {}): Promise<ChildServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(opts.nodeFlags ?? []), 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DEMO_SEED: '0',
      WEB_DIST: '/nonexistent',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = collectLogLines(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  const url = `http://127.0.0.1:${port}`;
  const server: ChildServer = {
    url,
    child,
    lines,
    exited,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  // up to 3 minutes: on a loaded machine (shared CI, parallel runs) a cold tsx start takes well over one
  for (let i = 0; i < 1800; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    const ok = await fetch(`${url}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok && lines.some((l) => typeof l.msg === 'string' && l.msg.startsWith('Masar on'))) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.kill();
  throw new Error(`server did not start: ${stderr}`);
}

/** Poll `fn` until it returns a truthy value (or `timeoutMs` passes: returns the last value). */
/** The JSON log lines a child server writes to stdout, collected as they arrive (other lines skipped). */
export function collectLogLines(child: ChildProcess): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  let buf = '';
  child.stdout?.on('data', (d: Buffer) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        /* not a log line */
      }
    }
  });
  return lines;
}

export async function eventually<T>(fn: () => Promise<T>, timeoutMs = 90_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await fn();
  while (!last && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, everyMs));
    last = await fn();
  }
  return last;
}

/** A database the crash tests watch from a connection of their own. */
interface Watched {
  query<T>(text: string, values?: unknown[]): Promise<T[]>;
}

/** Whether a backend of the current database waits on a lock (a request the test holds up). */
export const someoneWaitsOnLock = async (database: Watched): Promise<boolean> =>
  (
    await database.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and state = 'active'`,
    )
  )[0].n > 0;

/**
 * Wait (up to 60 s) until no other backend of the current database is inside a transaction: the
 * killed server's backends have ended and rolled back. Returns whether that happened.
 */
export const orphansRolledBack = (database: Watched): Promise<boolean> =>
  eventually(
    async () =>
      (
        await database.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null`,
        )
      )[0].n === 0,
    60_000,
  );

/** The JWT secret of createTestApp's users, for child servers that must accept their tokens. */
export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789';

/**
 * The child servers and the clean-ups of a crash test file: after all its tests, every server is
 * killed (SIGKILL) and the clean-ups run last first.
 */
export function crashHarness(): { servers: ChildServer[]; cleanups: (() => Promise<void>)[] } {
  const servers: ChildServer[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const s of servers) await s.kill();
    for (const c of cleanups.reverse()) await c();
  });
  return { servers, cleanups };
}
