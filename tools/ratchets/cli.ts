/**
 * The ratchets of issue 51, numbers that may only go down (docs/architecture.md, "Ratchets"):
 *
 *   npm run ratchets                              check all three (part of `npm run lint`)
 *   npm run ratchets -- long-functions duplicates check some (names: long-functions, duplicates, bundle)
 *   npm run ratchets:update                       lower the baselines to the tree (refuses any rise)
 *   npm run ratchets:update -- --allow-growth     also accept new entries and rises: ONLY when
 *                                                 merging a refactor that moves or renames code
 *
 * long-functions: tools/ratchets/long-functions.json (long-functions.ts); duplicates:
 * tools/ratchets/duplicates.json with .jscpd.json (duplicates.ts); bundle: tools/bundle/budget.json
 * (tools/bundle/budget.ts), checked only when apps/web/dist holds a build (`npm run build`; the
 * same budgets are asserted by tools/bundle/budget.test.ts in `npm test`).
 */
import { resolve } from 'node:path';
import { hasBuild, readManifest } from '../bundle/size.ts';
import { ROUTES } from '../bundle/routes.ts';
import { checkBudget, lowerBudget, readBudget, writeBudget } from '../bundle/budget.ts';
import { checkDuplicates, measureDuplicates, readDuplicatesBaseline, updateDuplicates, writeDuplicatesBaseline } from './duplicates.ts';
import { checkLongFunctions, measureLongFunctions, readLongFunctionsBaseline, updateLongFunctions, writeLongFunctionsBaseline } from './long-functions.ts';

const ROOT = resolve(import.meta.dirname, '../..');
export const FILES = {
  longFunctions: resolve(ROOT, 'tools/ratchets/long-functions.json'),
  duplicates: resolve(ROOT, 'tools/ratchets/duplicates.json'),
  jscpdConfig: resolve(ROOT, '.jscpd.json'),
  budget: resolve(ROOT, 'tools/bundle/budget.json'),
  dist: resolve(ROOT, 'apps/web/dist'),
};

const args = process.argv.slice(2);
const update = args.includes('--update');
const allowGrowth = args.includes('--allow-growth');
const CHECKS = ['long-functions', 'duplicates', 'bundle'] as const;
const unknown = args.filter((a) => !a.startsWith('--') && !(CHECKS as readonly string[]).includes(a));
if (unknown.length || (allowGrowth && !update)) {
  console.error(`usage: cli.ts [--update [--allow-growth]] [${CHECKS.join('|')} ...]${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
  process.exit(2);
}
const chosen = CHECKS.filter((c) => args.includes(c));
const run = chosen.length ? chosen : CHECKS;

let failed = false;
const UPDATE_HINT = 'the baseline is looser than the tree: run `npm run ratchets:update` and commit the baseline, so it stays tight';

function report(name: string, started: number, failures: string[], stale: string[], notes: string[] = [], details: string[] = []) {
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  const ok = !failures.length && !stale.length;
  console.log(`${ok ? '✓' : '✗'} ratchet ${name} (${secs} s)`);
  for (const n of notes) console.log(`  ${n}`);
  for (const f of failures) console.log(`  FAIL ${f}`);
  for (const s of stale) console.log(`  UPDATE ${s}`);
  if (stale.length && !failures.length) console.log(`  → ${UPDATE_HINT}`);
  for (const d of details) console.log(`    ${d}`);
  if (!ok) failed = true;
}

function applyUpdate(name: string, started: number, refused: string[], warnings: string[], write: () => void, changed: boolean) {
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  if (refused.length) {
    console.log(`✗ ratchet ${name} (${secs} s): not updated, the update would let these in (a baseline only shrinks):`);
    for (const r of refused) console.log(`  REFUSED ${r}`);
    console.log('  Fix them, or, only for the merge of a refactor that moves or renames code, `npm run ratchets:update -- --allow-growth`.');
    failed = true;
    return;
  }
  for (const w of warnings) console.log(`  GROWTH ${w}`);
  if (changed) write();
  console.log(`✓ ratchet ${name} (${secs} s): ${changed ? 'baseline rewritten' : 'baseline already matches the tree'}`);
}

if (run.includes('long-functions')) {
  const t = performance.now();
  const baseline = readLongFunctionsBaseline(FILES.longFunctions);
  const current = await measureLongFunctions({ cwd: ROOT });
  if (update) {
    const { next, refused, warnings } = updateLongFunctions(current, baseline, { allowGrowth });
    const changed = JSON.stringify(next.functions) !== JSON.stringify(baseline.functions);
    applyUpdate('long-functions', t, refused, warnings, () => writeLongFunctionsBaseline(FILES.longFunctions, next), changed);
  } else {
    const { failures, stale } = checkLongFunctions(current, baseline);
    report('long-functions', t, failures, stale, [
      `${current.length} functions over 80 lines (${current.filter((f) => f.lines > 150).length} over 150), ${baseline.functions.length} in the baseline`,
    ]);
  }
}

if (run.includes('duplicates')) {
  const t = performance.now();
  const baseline = readDuplicatesBaseline(FILES.duplicates);
  const current = measureDuplicates({ cwd: ROOT, config: FILES.jscpdConfig });
  if (update) {
    const { next, refused, warnings } = updateDuplicates(current, baseline, { allowGrowth });
    const changed = next.clones !== baseline.clones || next.duplicatedLines !== baseline.duplicatedLines;
    applyUpdate('duplicates', t, refused, warnings, () => writeDuplicatesBaseline(FILES.duplicates, next), changed);
  } else {
    const { failures, stale } = checkDuplicates(current, baseline);
    const notes = [`${current.clones} clones, ${current.duplicatedLines} duplicated lines in ${current.sources} files (jscpd, .jscpd.json)`];
    // the baseline is a count: list every clone, the new one among them (`duplicates --change` names it)
    const details = failures.length ? current.list.map((c) => `clone of ${c.lines} lines: ${c.first} ~ ${c.second}`) : [];
    report('duplicates', t, failures, stale, notes, details);
  }
}

if (run.includes('bundle')) {
  const t = performance.now();
  if (!hasBuild(FILES.dist)) {
    console.log('- ratchet bundle: skipped, no web build in apps/web/dist (`npm run build`; `npm test` asserts the budgets after its build)');
  } else {
    const budget = readBudget(FILES.budget);
    const { rows, failures, lowerable } = checkBudget(FILES.dist, readManifest(FILES.dist), ROUTES, budget);
    if (update) {
      const { next, changes } = lowerBudget(rows, budget);
      for (const c of changes) console.log(`  LOWERED ${c}`);
      if (changes.length) writeBudget(FILES.budget, next);
      console.log(`✓ ratchet bundle: ${changes.length ? 'budget.json lowered' : 'no budget to lower'} (budgets are never raised by a tool)`);
    } else {
      // lowerable is a hint, not a failure: builds vary a little
      report('bundle', t, failures, [], lowerable);
    }
  }
}

if (failed) process.exitCode = 1;
