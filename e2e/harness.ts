import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Browser journeys need Debian's Chromium. Locally without it they are skipped with a notice;
 * in CI (`MASAR_E2E_REQUIRED=1`, set by .ci/run) a missing browser fails the run.
 */
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  if (process.env.MASAR_E2E_REQUIRED === '1') throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  console.warn(`[e2e] skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);
}

/**
 * E2E_PORT_BASE: take ports from there upwards instead of any free one (a machine shared by several
 * runs, each given its range). Journeys run two files at a time: each Vitest worker takes its own
 * hundred ports of the range (VITEST_POOL_ID is 1, 2, …).
 */
let nextPort = Number(process.env.E2E_PORT_BASE) ? Number(process.env.E2E_PORT_BASE) + 100 * (Number(process.env.VITEST_POOL_ID ?? 1) - 1) : 0;
async function freePort(): Promise<number> {
  if (nextPort) return nextPort++;
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
  /** Latest SMS text sent to `phone` by the sandbox gateway. */
  lastSms(phone: string): Promise<string | undefined>;
  /**
   * Run the operator CLI (`npm run admin -- …`) on this server's database: the server stops (one
   * process per PGlite data directory), the command runs, the server starts again on the same URL
   * (browser sessions survive). Resolves with the command's output; rejects on a non-zero exit.
   */
  admin(...args: string[]): Promise<string>;
  /**
   * Run the operator CLI beside the running server (no restart): only for a server on PostgreSQL
   * (`startServer({ DATABASE_URL })`), where two processes share the database and the CLI's
   * commit reaches the server's outbox drain by NOTIFY. Rejects on a non-zero exit.
   */
  adminLive(...args: string[]): Promise<string>;
  /** Run a TypeScript file (path from the repository root) on this server's database, as `admin` does. */
  script(file: string, ...args: string[]): Promise<string>;
}

/** The environment variable naming the seeded data directory every embedded-database server copies. */
export const E2E_DATA_TEMPLATE = 'MASAR_E2E_DATA_TEMPLATE';
/** Files e2e/global-setup.ts writes beside the template's `db` directory when its seed has finished, or failed (with the error). */
export const TEMPLATE_SEEDED = 'seeded';
export const TEMPLATE_FAILED = 'seed-failed';

/**
 * The seeded data template's directory once its seed has finished (e2e/global-setup.ts seeds it
 * in the background while the other projects' tests run), or undefined when the run has none.
 */
async function seededTemplate(): Promise<string | undefined> {
  const template = process.env[E2E_DATA_TEMPLATE];
  if (!template) return undefined;
  const dir = dirname(template);
  const deadline = Date.now() + 900_000;
  while (!existsSync(join(dir, TEMPLATE_SEEDED))) {
    if (existsSync(join(dir, TEMPLATE_FAILED)))
      throw new Error(`the journeys' data template was not seeded: ${readFileSync(join(dir, TEMPLATE_FAILED), 'utf8')}`);
    if (Date.now() > deadline) throw new Error("the journeys' data template was not seeded within 900 s");
    await new Promise((r) => setTimeout(r, 500));
  }
  return template;
}

/** The journeys' server settings, as `npm start` runs the product on its embedded database. */
function serverDefaults(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    // the journeys read one-time codes from the sandbox outbox, which only development opens
    NODE_ENV: 'development',
    DEV_OUTBOX: '1',
    // the journeys sign in to the demo accounts, as `npm start` seeds them
    DEMO_SEED: '1',
  };
}

/**
 * Migrate and seed an embedded database in `dataDir` once, as the first `npm start` does, and stop:
 * each journey's server then starts from a copy (PGlite's migrations and the demo seed, a year of
 * lane rates, take most of a fresh start).
 */
export async function seedDataTemplate(dataDir: string, startMs = 300_000): Promise<void> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await launch({ ...serverDefaults(), PORT: String(port), DATA_DIR: dataDir, WEB_DIST: join(ROOT, 'apps/web/dist') }, url, startMs);
  child.kill('SIGTERM');
  await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
}

/**
 * Start the product as `npm start` does (built web app + API + PGlite with demo data) on a free
 * port and a temporary DATA_DIR; resolves when /api/health answers.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(join(ROOT, 'apps/web/dist/index.html'))) throw new Error('Build the web app first (npm run build)');
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'masar-e2e-'));
  // Serve a copy of the built app: a rebuild while the journeys run must not swap hashed chunks under them.
  const webDist = join(dataDir, 'web-dist');
  cpSync(join(ROOT, 'apps/web/dist'), webDist, { recursive: true });
  // An embedded database starts as a copy of the run's migrated and seeded one (e2e/global-setup.ts):
  // the server still runs its migrations and the demo seed, which find nothing to do.
  const template = env.DATABASE_URL ? undefined : await seededTemplate();
  if (template && existsSync(template)) cpSync(template, join(dataDir, 'db'), { recursive: true });
  const serverEnv: NodeJS.ProcessEnv = {
    ...serverDefaults(),
    PORT: String(port),
    DATA_DIR: join(dataDir, 'db'),
    WEB_DIST: webDist,
    ...env,
  };
  const url = `http://127.0.0.1:${port}`;
  let child = await launch(serverEnv, url);
  const stopChild = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  };
  /** Run `file` with `args` on the server's database and settings; resolves with its exit code and output. */
  const runScript = (file: string, args: string[]) =>
    new Promise<{ code: number | null; text: string }>((res) => {
      const cli = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
        cwd: ROOT,
        env: serverEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      cli.stdout?.on('data', (b: Buffer) => (text += b.toString()));
      cli.stderr?.on('data', (b: Buffer) => (text += b.toString()));
      cli.on('exit', (code) => res({ code, text }));
    });
  const checked = (file: string, args: string[], out: { code: number | null; text: string }) => {
    if (out.code !== 0) throw new Error(`${file} ${args.join(' ')} exited with ${out.code}: ${out.text}`);
    return out.text;
  };
  /** Stop the server (one process per PGlite data directory), run `file` with `args`, start it again on the same URL. */
  const runStopped = async (file: string, args: string[]) => {
    await stopChild();
    const out = await runScript(file, args);
    child = await launch(serverEnv, url);
    return checked(file, args, out);
  };
  return {
    url,
    dataDir,
    async stop() {
      await stopChild();
      rmSync(dataDir, { recursive: true, force: true });
    },
    async lastSms(phone) {
      const r = await fetch(`${url}/api/v1/dev/outbox?phone=${encodeURIComponent(phone)}`);
      const j = (await r.json()) as { data?: { items?: { body: string }[] } | { body: string }[] };
      const items = Array.isArray(j.data) ? j.data : (j.data?.items ?? []);
      return items[0]?.body;
    },
    admin(...args) {
      return runStopped('apps/server/src/cli/admin.ts', args);
    },
    async adminLive(...args) {
      if (!serverEnv.DATABASE_URL) throw new Error('adminLive needs a server on PostgreSQL (DATABASE_URL)');
      const file = 'apps/server/src/cli/admin.ts';
      return checked(file, args, await runScript(file, args));
    },
    script(file, ...args) {
      return runStopped(file, args);
    },
  };
}

/** Spawn the server (apps/server/src/main.ts, on Node's type stripping: see apps/server/test/crash-child.ts) and resolve when /api/health answers. */
async function launch(env: NodeJS.ProcessEnv, url: string, startMs = 300_000): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['apps/server/src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  // generous: PGlite's migrations and the demo seed take minutes on a busy shared machine
  const deadline = Date.now() + startMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) return child;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start in ${startMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/**
 * Flags of every headless Chromium the journeys and benches start (DESIGN §5): no sandbox (root in
 * a container), no GPU, no QUIC, and none of the browser's own background work, which on a 2-core
 * machine takes CPU from the page under test. Chromium 156 also loads the omnibox popup's WebUI
 * (chrome://omnibox-popup.top-chrome, a Lit app in a renderer of its own) in every new window:
 * about 0.9 s of script per browser context in a Chrome trace taken while the load search loaded,
 * which moved the load search's first row from ≈1.55 s to ≈2.0 s (issue 23, `npm run bench:lcp`;
 * each of the features below alone is worth most of it). A user's browser pays that once per
 * window, not per page load; the journeys open a context per test. CHROMIUM_DISABLE_FEATURES
 * replaces the list (e.g. `none` to measure with it).
 */
const disabledFeatures = process.env.CHROMIUM_DISABLE_FEATURES ?? 'WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  ...(disabledFeatures === 'none' ? [] : [`--disable-features=${disabledFeatures}`]),
];

/**
 * A fresh headless Chromium profile (CHROMIUM_ARGS). `reducedMotion: 'reduce'` is the operating
 * system's "reduce motion" setting: the app then shows every state at once (no transition or
 * animation, global.css and theme.ts), which the page sweep uses so that colours are final as soon
 * as a page is ready.
 */
export async function openBrowser(
  opts: { viewport?: { width: number; height: number }; locale?: string; args?: string[]; reducedMotion?: 'reduce' | 'no-preference' } = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'masar-chromium-')), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: opts.viewport ?? { width: 1280, height: 900 },
    locale: opts.locale ?? 'en-US',
    reducedMotion: opts.reducedMotion ?? 'no-preference',
    args: [...CHROMIUM_ARGS, ...(opts.args ?? [])],
  });
}

/** Screenshot into e2e/artifacts (ignored by git) for humans to look at. */
export async function snap(page: Page, name: string) {
  await page.screenshot({ path: join(ROOT, 'e2e/artifacts', `${name}.png`), fullPage: false });
}
