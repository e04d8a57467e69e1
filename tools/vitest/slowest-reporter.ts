import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints, after every run, the ten slowest test files and each project's summed file time (issue 51:
 * CI stays under 25 minutes, and the closing note of a change that moves it names what costs most).
 * A file's time is Vitest's own `diagnostic().duration` (its tests and hooks, not the import or
 * environment set-up). VITEST_TIMINGS_FILE=path also writes every file's figures there as JSON.
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules
      .map((m) => {
        const d = m.diagnostic();
        return {
          file: relative(process.cwd(), m.moduleId),
          project: m.project.name,
          seconds: d.duration / 1000,
          setupSeconds: (d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration) / 1000,
        };
      })
      .sort((a, b) => b.seconds - a.seconds);
    if (!rows.length) return;
    const perProject = new Map<string, number>();
    for (const r of rows) perProject.set(r.project, (perProject.get(r.project) ?? 0) + r.seconds + r.setupSeconds);
    const lines = ['', 'Ten slowest test files (tests and hooks, seconds):'];
    for (const r of rows.slice(0, 10)) lines.push(`  ${r.seconds.toFixed(1).padStart(7)}  ${r.project.padEnd(16)} ${r.file}`);
    lines.push(`Summed file time per project (seconds, with set-up): ${[...perProject].map(([p, s]) => `${p} ${s.toFixed(0)}`).join(', ')}`);
    console.log(lines.join('\n'));
    if (process.env.VITEST_TIMINGS_FILE) writeFileSync(process.env.VITEST_TIMINGS_FILE, JSON.stringify(rows, null, 1));
  }
}
