import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_DATA_TEMPLATE, hasChromium, ROOT, seedDataTemplate, TEMPLATE_FAILED, TEMPLATE_SEEDED } from './harness.ts';

/**
 * Once per run of the browser journeys: one embedded database migrated and seeded with the demo
 * data, which every journey's server (`startServer()` on PGlite) starts from as a copy — a fresh
 * start spends most of its time there, and the journeys start about 25 servers. Passed to the test
 * workers in the environment (they are created after this runs). Without Chromium or a built app
 * the journeys are skipped or fail on their own, and no template is made.
 *
 * The seed runs in the background: Vitest runs every project's global setup, one after another,
 * before the first test of any project, and the journeys come last (their own group), so the seed
 * (a single process: migrations and a year of demo history) now overlaps the server and web suites
 * instead of holding both cores' work back while one is idle (issue 51). `startServer()` waits for
 * the `seeded` file this writes beside the template (or throws with the error in `seed-failed`).
 */
export default function setup() {
  if (!hasChromium || !existsSync(join(ROOT, 'apps/web/dist/index.html'))) return;
  const dir = mkdtempSync(join(tmpdir(), 'masar-e2e-template-'));
  const started = Date.now();
  process.env[E2E_DATA_TEMPLATE] = join(dir, 'db');
  // a busy machine (both cores running the other suites) gets more time than a journey's server
  const seeding = seedDataTemplate(join(dir, 'db'), 900_000).then(
    () => {
      writeFileSync(join(dir, TEMPLATE_SEEDED), '');
      console.log(`[e2e] seeded data template in ${((Date.now() - started) / 1000).toFixed(1)} s (in the background)`);
    },
    (err: unknown) => writeFileSync(join(dir, TEMPLATE_FAILED), err instanceof Error ? (err.stack ?? err.message) : String(err)),
  );
  return async () => {
    await seeding;
    rmSync(dir, { recursive: true, force: true });
  };
}
