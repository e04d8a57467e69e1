/**
 * Ratchet on duplicated code (issue 51): jscpd (the Rust engine of jscpd 5) over the source of
 * apps/ and packages/ with the repository's .jscpd.json (TypeScript and TSX; tests, fixtures and
 * generated files left out; a clone is at least 6 lines and 50 tokens), against a committed count
 * (tools/ratchets/duplicates.json). More clones or more duplicated lines than the baseline fail;
 * fewer fail too, asking for `npm run ratchets:update`, so the count only goes down.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

export interface DuplicatesBaseline {
  comment?: string;
  clones: number;
  duplicatedLines: number;
}

export interface Clone {
  lines: number;
  first: string;
  second: string;
}

export interface DuplicatesMeasure {
  clones: number;
  duplicatedLines: number;
  /** Files read. */
  sources: number;
  list: Clone[];
}

interface JscpdReport {
  statistics: { total: { clones: number; duplicatedLines: number; sources: number } };
  duplicates: { lines: number; firstFile: { name: string; start: number; end: number }; secondFile: { name: string; start: number; end: number } }[];
}

const jscpdBin = () => createRequire(import.meta.url).resolve('jscpd/run-jscpd.js');

/**
 * Runs jscpd with `config` (a .jscpd.json, whose `path` folders are relative to its own folder)
 * in `cwd`; `paths` (relative to cwd) replace the config's folders when given (a fixture tree).
 * Its ignore patterns match paths relative to cwd. File names in the answer are relative to cwd.
 */
export function measureDuplicates({ cwd, config, paths }: { cwd: string; config: string; paths?: string[] }): DuplicatesMeasure {
  const out = mkdtempSync(join(tmpdir(), 'masar-jscpd-'));
  try {
    const args = [jscpdBin(), '--config', resolve(config), '--reporters', 'json', '--output', out, '--silent', '--no-tips', '--no-colors', ...(paths ?? [])];
    const run = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env: { ...process.env, JSCPD_NO_TIPS: '1' } });
    if (run.status !== 0) throw new Error(`jscpd exited with ${run.status ?? run.signal}: ${run.stderr || run.stdout}`);
    const report = JSON.parse(readFileSync(join(out, 'jscpd-report.json'), 'utf8')) as JscpdReport;
    // jscpd names a file relative to the scanned folder it was found in (`--absolute` would make the
    // ignore patterns match absolute paths, so that `**/fixtures/**` hides a fixture tree): find the folder again
    const scanned = paths ?? (JSON.parse(readFileSync(resolve(config), 'utf8')) as { path?: string[] }).path ?? ['.'];
    const local = (name: string) => {
      const base = scanned.find((p) => existsSync(resolve(cwd, p, name)));
      return base === undefined
        ? name
        : relative(cwd, resolve(cwd, base, name))
            .split('\\')
            .join('/');
    };
    const at = (f: { name: string; start: number; end: number }) => `${local(f.name)}:${f.start}-${f.end}`;
    const { clones, duplicatedLines, sources } = report.statistics.total;
    return { clones, duplicatedLines, sources, list: report.duplicates.map((d) => ({ lines: d.lines, first: at(d.firstFile), second: at(d.secondFile) })) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Compares a measurement with the baseline: more is a failure, less is stale (update the baseline). */
export function checkDuplicates(current: { clones: number; duplicatedLines: number }, baseline: DuplicatesBaseline): { failures: string[]; stale: string[] } {
  const failures: string[] = [];
  const stale: string[] = [];
  for (const k of ['clones', 'duplicatedLines'] as const) {
    const label = k === 'clones' ? 'clones' : 'duplicated lines';
    if (current[k] > baseline[k])
      failures.push(
        `${current[k]} ${label}, the baseline allows ${baseline[k]}: remove the new duplication (every clone is listed below; 'duplicates --change --base main' shows what a branch added)`,
      );
    else if (current[k] < baseline[k]) stale.push(`${current[k]} ${label}, fewer than the baseline's ${baseline[k]}`);
  }
  return { failures, stale };
}

/** The baseline lowered to the measurement; a rise is refused unless allowGrowth (for the merge of a refactor only). */
export function updateDuplicates(
  current: { clones: number; duplicatedLines: number },
  baseline: DuplicatesBaseline,
  { allowGrowth = false }: { allowGrowth?: boolean } = {},
): { next: DuplicatesBaseline; refused: string[]; warnings: string[] } {
  const rises = (['clones', 'duplicatedLines'] as const).filter((k) => current[k] > baseline[k]).map((k) => `${k}: ${baseline[k]} → ${current[k]}`);
  return {
    next: { ...baseline, clones: current.clones, duplicatedLines: current.duplicatedLines },
    refused: allowGrowth ? [] : rises,
    warnings: allowGrowth ? rises.map((r) => `${r} (raised: --allow-growth)`) : [],
  };
}

export const readDuplicatesBaseline = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as DuplicatesBaseline;
export const writeDuplicatesBaseline = (file: string, b: DuplicatesBaseline) =>
  writeFileSync(file, `${JSON.stringify({ comment: b.comment, clones: b.clones, duplicatedLines: b.duplicatedLines }, null, 2)}\n`);
