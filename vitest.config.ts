import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { webAliases } from './apps/web/aliases.ts';

const serverProject = (engine: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `server-${engine}`,
    include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DB_ENGINE: engine },
    globalSetup: ['apps/server/test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

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
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'shared', include: ['packages/shared/src/**/*.test.ts'], environment: 'node' } },
      { extends: true, test: { name: 'tools', include: ['tools/**/*.test.ts'], exclude: ['tools/**/fixtures/**'], environment: 'node' } },
      serverProject('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : []),
      {
        extends: true,
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup.ts'],
          // vitest's 5 s default equals the findBy… bound (setup.ts): a test whose page renders
          // slowly on a busy 2-core machine gets room, and a missing element fails with its own
          // message instead of a timeout. Timings are never what these tests assert.
          testTimeout: 20_000,
        },
        resolve: { alias: webAliases },
      },
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
