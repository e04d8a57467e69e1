import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkLongFunctions,
  type LongFunction,
  MAX_LINES,
  measureLongFunctions,
  readLongFunctionsBaseline,
  sortFunctions,
  updateLongFunctions,
} from './long-functions.ts';

// The long-function ratchet (issue 51) on fixture trees: fixtures/long-functions has one function
// of 90 counted lines (and a test file that is not measured), fixtures/names one function of each
// shape the names must tell apart.
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const WIDGETS = { file: 'apps/server/src/widgets.ts', name: 'createWidgetService', lines: 90 };

describe('long-function ratchet', () => {
  let current: LongFunction[];
  beforeAll(async () => {
    current = await measureLongFunctions({ cwd: fixture('long-functions') });
  }, 60_000);

  it('measures with max-lines-per-function: blank and comment lines do not count, tests are not measured', () => {
    expect(current).toEqual([WIDGETS]);
  });

  it('fails on a function over 80 lines that the baseline does not list', () => {
    const { failures, stale } = checkLongFunctions(current, { functions: [] });
    expect(failures).toEqual([
      `apps/server/src/widgets.ts: createWidgetService (90 lines): new function over ${MAX_LINES} lines; split it (the baseline only shrinks)`,
    ]);
    expect(stale).toEqual([]);
  });

  it('passes when the baseline lists the function at its length', () => {
    expect(checkLongFunctions(current, { functions: [WIDGETS] })).toEqual({ failures: [], stale: [] });
  });

  it('fails when a listed function grew', () => {
    const { failures } = checkLongFunctions(current, { functions: [{ ...WIDGETS, lines: 85 }] });
    expect(failures).toEqual([expect.stringContaining('createWidgetService (90 lines): grew from 85 lines')]);
  });

  it('asks for an update when a listed function shrank or is gone, so the baseline stays tight', () => {
    const gone = { file: 'apps/server/src/old.ts', name: 'createOldService', lines: 120 };
    const { failures, stale } = checkLongFunctions(current, { functions: [{ ...WIDGETS, lines: 95 }, gone] });
    expect(failures).toEqual([]);
    expect(stale).toEqual([
      "apps/server/src/widgets.ts: createWidgetService (90 lines): shorter than the baseline's 95",
      `apps/server/src/old.ts: createOldService: no longer over ${MAX_LINES} lines (or renamed/removed); the baseline listed 120`,
    ]);
  });

  it('refuses a function over the hard limit that the baseline does not list', () => {
    const { failures } = checkLongFunctions(current, { functions: [] }, { hardMax: 85 });
    expect(failures).toEqual([expect.stringContaining("over the hard limit of 85 lines, which only the baseline's functions may pass")]);
  });

  it('ratchets:update lowers and drops entries, and refuses a new or longer one without --allow-growth', () => {
    const gone = { file: 'apps/server/src/old.ts', name: 'createOldService', lines: 120 };
    const shrink = updateLongFunctions(current, { functions: [{ ...WIDGETS, lines: 95 }, gone] });
    expect(shrink).toMatchObject({ refused: [], next: { functions: [WIDGETS] } });

    const grow = updateLongFunctions(current, { functions: [{ ...WIDGETS, lines: 85 }] });
    expect(grow.refused).toEqual([expect.stringContaining("longer than the baseline's 85")]);
    expect(updateLongFunctions(current, { functions: [] }).refused).toEqual([expect.stringContaining('not in the baseline')]);

    const allowed = updateLongFunctions(current, { functions: [] }, { allowGrowth: true, hardMax: 85 });
    expect(allowed.refused).toEqual([]);
    expect(allowed.next.functions).toEqual([WIDGETS]);
    expect(allowed.warnings).toEqual([expect.stringMatching(/--allow-growth.*over the hard limit of 85/)]);
  });

  it('names a function by what encloses it, with no line numbers', async () => {
    const names = (await measureLongFunctions({ cwd: fixture('names'), max: 2 })).map((f) => f.name);
    expect(names.sort()).toEqual(
      [
        'declared',
        'Arrow',
        'createThing',
        'createThing > method',
        'createThing > prop',
        'Klass > run',
        "app.get('/api/v1/things')",
        '(iife)',
        'Memo > memo() > Memo',
        'Memo > memo() > Memo > useEffect()',
        'twice',
        'twice > items.map()',
        'twice > items.map() #2',
      ].sort(),
    );
  }, 60_000);
});

describe('the committed baseline (long-functions.json)', () => {
  const baseline = readLongFunctionsBaseline(fileURLToPath(new URL('./long-functions.json', import.meta.url)));

  it('lists each function once, sorted, every one over the limit', () => {
    expect(baseline.functions).toEqual(sortFunctions(baseline.functions));
    expect(new Set(baseline.functions.map((f) => `${f.file} ${f.name}`)).size).toBe(baseline.functions.length);
    for (const f of baseline.functions) expect(f.lines, `${f.file} ${f.name}`).toBeGreaterThan(MAX_LINES);
  });

  it('is written one function a line (what ratchets:update writes)', () => {
    const text = readFileSync(fileURLToPath(new URL('./long-functions.json', import.meta.url)), 'utf8');
    expect(text.split('\n').filter((l) => l.trimStart().startsWith('{ "file"'))).toHaveLength(baseline.functions.length);
  });
});
