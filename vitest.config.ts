import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { webAliases } from './apps/web/aliases.ts';

/**
 * Server test files that open no database (gateways, lib, plugins, the text-only boundary and
 * message checks): they run once, in server-pglite, not again on PostgreSQL, where they would test
 * nothing new (issue 51, CI time). `tools/vitest/db-free.test.ts` fails when one of them starts to
 * open a database, so the list cannot hide a PostgreSQL-only difference.
 */
export const SERVER_DB_FREE = [
  'apps/server/src/gateways/bayan/bayan.test.ts',
  'apps/server/src/gateways/email/email.test.ts',
  'apps/server/src/gateways/payments/moyasar.test.ts',
  'apps/server/src/gateways/sms/sms.test.ts',
  'apps/server/src/gateways/wasl/wasl.test.ts',
  'apps/server/src/lib/log.test.ts',
  'apps/server/src/lib/memo.test.ts',
  'apps/server/src/lib/node-runtime.test.ts',
  'apps/server/src/lib/page-cache.test.ts',
  'apps/server/src/lib/signed-links.test.ts',
  'apps/server/src/lib/tx-journal.test.ts',
  'apps/server/src/modules/events/events.types.test.ts',
  'apps/server/src/modules/rates/forecast.test.ts',
  'apps/server/src/plugins/docs.test.ts',
  'apps/server/src/plugins/security-headers.test.ts',
  'apps/server/test/boundaries.test.ts',
  'apps/server/test/messages-catalogue.test.ts',
];

const serverProject = (engine: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `server-${engine}`,
    // One module graph per worker, not per file: every file imported the whole server again
    // (643 s of the run's import phase). The non-browser projects went from 1,244 s to 812 s on
    // 2026-11-28. Safe because no server test mocks a module or stubs the environment, every
    // file builds its own app and database (createTestApp) and closes them, and the server's
    // module-level caches hold reference data, which is the same in every test database.
    isolate: false,
    include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
    ...(engine === 'postgres' ? { exclude: [...configDefaults.exclude, ...SERVER_DB_FREE] } : {}),
    environment: 'node',
    env: { TEST_DB_ENGINE: engine },
    globalSetup: ['apps/server/test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

/**
 * Web unit tests (jsdom). In `web` the files of a worker share one module graph for the packages
 * (React, Mantine, i18next, Testing Library), not one per file: an isolated run spent about 3.7×
 * the CPU (419 s against 112 s for the 83 files on 2026-12-07, `/usr/bin/time npx vitest run
 * --project web`), nearly all of it loading those packages again for every file. The app's own
 * modules still start fresh in every file (setup.ts: vi.resetModules, storage, cookies, stubbed
 * globals, timers and trees left mounted are reset), and the suite passed in five file orders
 * (`--sequence.shuffle.files --sequence.seed=N`). WEB_ISOLATED lists the files that still saw
 * another file's state in some order; they run isolated, as every file did before (issue 51).
 */
const WEB_ISOLATED = [
  // its city search found no option after some other files in the same worker (2 of 5 orders)
  'apps/web/src/features/trucks/pages/InOutPage.test.tsx',
  // its page's <SavedSearches> threw while rendering after some other files in the same worker
  // (two fresh-clone CI runs, 2026-12-08; passes alone and with the trucks files); cause not found
  'apps/web/src/features/trucks/pages/SearchTrucksPage.test.tsx',
];
const webProject = (name: string, isolated: boolean) => ({
  extends: true as const,
  test: {
    name,
    isolate: isolated,
    ...(isolated ? { include: WEB_ISOLATED } : { include: ['apps/web/src/**/*.test.{ts,tsx}'], exclude: WEB_ISOLATED }),
    environment: 'jsdom' as const,
    setupFiles: ['apps/web/src/test/setup.ts'],
    // vitest's 5 s default equals the findBy… bound (setup.ts): a test whose page renders
    // slowly on a busy 2-core machine gets room, and a missing element fails with its own
    // message instead of a timeout. Timings are never what these tests assert.
    testTimeout: 20_000,
  },
  resolve: { alias: webAliases },
});

/**
 * Files that run a minute or more on the 2-core CI machine (the run of 2026-11-28: the axe sweep
 * 538 s as one file, mobile 116 s, digits 102 s, keyboard 66 s; the kill -9 suites 30–124 s).
 * They start first in their project: a fresh clone has no timings cached, so Vitest orders by
 * file size, and the axe sweep (a short file) started last and ran alone for 265 s while the other
 * worker had nothing left. Order only; every file still runs.
 */
const LONG_FIRST = [/\/e2e\/a11y-/, /\/e2e\/keyboard\./, /\/e2e\/mobile\./, /\/apps\/server\/test\/crash-/];

/** Vitest's order (groups, then projects, then cached timings or size), with LONG_FIRST at the head of each project. */
class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.findIndex((re) => re.test(f.moduleId));
      return i < 0 ? LONG_FIRST.length : i;
    };
    const block = (f: TestSpecification) => `${f.project.config.sequence.groupOrder}:${f.project.name}`;
    const at = new Map(sorted.map((f, i) => [f, i]));
    // blocks keep their place (the first index of their project); within one, the long files lead
    const first = new Map<string, number>();
    for (const f of sorted) if (!first.has(block(f))) first.set(block(f), at.get(f)!);
    return [...sorted].sort((a, b) => first.get(block(a))! - first.get(block(b))! || rank(a) - rank(b) || at.get(a)! - at.get(b)!);
  }
}

/**
 * One `vitest run` runs everything: shared unit tests, server integration tests on PGlite and —
 * when TEST_DATABASE_URL is set — again on real PostgreSQL, web unit tests, and the browser
 * journeys (e2e, real Chromium against the built app).
 *
 * Test files run two at a time even on a two-core machine (Vitest's default there is one): every
 * file has its own database clone, and a file waits on its database and child processes much of
 * the time. The browser journeys come last, in their own group (so they do not compete with the
 * server suites), two files at a time as well: each has its own server on a free port and its own
 * copy of the seeded data directory, and a journey spends most of its time waiting on the page,
 * so one at a time left a core idle (1,734 s of journeys in a row, the accessibility sweep alone
 * 698 s). Nothing asserts a timing; every wait is bounded by WAIT (20 s).
 */
export default defineConfig({
  test: {
    // the default output, then the ten slowest files (tools/vitest/slowest-reporter.ts)
    reporters: ['default', './tools/vitest/slowest-reporter.ts'],
    sequence: { sequencer: LongFirstSequencer },
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'shared', include: ['packages/shared/src/**/*.test.ts'], environment: 'node' } },
      { extends: true, test: { name: 'tools', include: ['tools/**/*.test.ts'], exclude: ['tools/**/fixtures/**'], environment: 'node' } },
      serverProject('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : []),
      webProject('web', false),
      webProject('web-isolated', true),
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          // one migrated and seeded embedded database, copied by every journey's server
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
