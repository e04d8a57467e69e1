/**
 * Initial JS per route of a web build, e.g. `node --import tsx tools/bundle/report.ts [dist]`.
 * Prints raw, gzip and brotli kilobytes and the number of files (requests) and of those under 1 KB,
 * and the route's budget (budget.json, gzip / brotli KB); the budgets themselves are asserted by budget.test.ts.
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { initialJs, readManifest, sizeOf } from './size.ts';
import { ROUTES } from './routes.ts';
import { readBudget } from './budget.ts';

const dist = resolve(process.argv[2] ?? 'apps/web/dist');
const manifest = readManifest(dist);
const kb = (n: number) => (n / 1024).toFixed(1);
const budget = readBudget(resolve(import.meta.dirname, 'budget.json'));
for (const [name, src] of Object.entries(ROUTES)) {
  for (const lang of ['en', 'ar'] as const) {
    const files = initialJs(manifest, src, lang);
    const s = sizeOf(dist, files);
    const tiny = files.filter((f) => statSync(join(dist, f)).size < 1024).length;
    const b = budget.routes[name]?.[lang];
    console.log(
      `${`${name} (${lang})`.padEnd(19)} raw ${kb(s.raw).padStart(7)} KB  gzip ${kb(s.gzip).padStart(6)} KB  brotli ${kb(s.brotli).padStart(6)} KB  ${String(files.length).padStart(3)} files (${tiny} < 1 KB)  budget ${b ? `${b.gzipKB} / ${b.brotliKB} KB` : 'none'}`,
    );
  }
}
