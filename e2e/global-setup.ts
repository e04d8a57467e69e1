import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_DATA_TEMPLATE, hasChromium, ROOT, seedDataTemplate } from './harness.ts';

/**
 * Once per run of the browser journeys: one embedded database migrated and seeded with the demo
 * data, which every journey's server (`startServer()` on PGlite) starts from as a copy — a fresh
 * start spends most of its time there, and the journeys start about 25 servers. Passed to the test
 * workers in the environment (they are created after this runs). Without Chromium or a built app
 * the journeys are skipped or fail on their own, and no template is made.
 */
export default async function setup() {
  if (!hasChromium || !existsSync(join(ROOT, 'apps/web/dist/index.html'))) return;
  const dir = mkdtempSync(join(tmpdir(), 'masar-e2e-template-'));
  const started = Date.now();
  await seedDataTemplate(join(dir, 'db'));
  process.env[E2E_DATA_TEMPLATE] = join(dir, 'db');
  console.log(`[e2e] seeded data template in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return () => rmSync(dir, { recursive: true, force: true });
}
