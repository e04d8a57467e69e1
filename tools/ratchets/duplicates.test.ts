import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkDuplicates, measureDuplicates, readDuplicatesBaseline, updateDuplicates } from './duplicates.ts';

// The clone ratchet (issue 51) on a fixture tree: fixtures/duplicates copies a 13-line block from
// apps/web/src/a.ts into packages/shared/src/b.ts, and a third time into a test file, which the
// repository's .jscpd.json leaves out.
const cwd = fileURLToPath(new URL('./fixtures/duplicates', import.meta.url));
const config = fileURLToPath(new URL('../../.jscpd.json', import.meta.url));

describe('duplicate-block ratchet (jscpd)', () => {
  const current = measureDuplicates({ cwd, config, paths: ['apps', 'packages'] });

  it('finds the copied block with the repository’s settings, and leaves the test file out', () => {
    expect(current).toMatchObject({ clones: 1, duplicatedLines: 13, sources: 2 });
    expect(current.list).toEqual([{ lines: 13, first: 'apps/web/src/a.ts:2-14', second: 'packages/shared/src/b.ts:2-14' }]);
  });

  it('fails above a baseline of 0', () => {
    const { failures, stale } = checkDuplicates(current, { clones: 0, duplicatedLines: 0 });
    expect(failures).toEqual([expect.stringMatching(/^1 clones, the baseline allows 0/), expect.stringMatching(/^13 duplicated lines, the baseline allows 0/)]);
    expect(stale).toEqual([]);
  });

  it('passes at the baseline, and asks for an update below it', () => {
    expect(checkDuplicates(current, { clones: 1, duplicatedLines: 13 })).toEqual({ failures: [], stale: [] });
    expect(checkDuplicates(current, { clones: 2, duplicatedLines: 20 })).toEqual({
      failures: [],
      stale: ["1 clones, fewer than the baseline's 2", "13 duplicated lines, fewer than the baseline's 20"],
    });
  });

  it('ratchets:update lowers the baseline, and raises it only with --allow-growth', () => {
    expect(updateDuplicates(current, { clones: 2, duplicatedLines: 20 })).toMatchObject({ refused: [], next: { clones: 1, duplicatedLines: 13 } });
    expect(updateDuplicates(current, { clones: 0, duplicatedLines: 0 }).refused).toEqual(['clones: 0 → 1', 'duplicatedLines: 0 → 13']);
    expect(updateDuplicates(current, { clones: 0, duplicatedLines: 0 }, { allowGrowth: true })).toMatchObject({
      refused: [],
      next: { clones: 1, duplicatedLines: 13 },
    });
  });

  it('the committed baseline is a count of clones and lines', () => {
    const baseline = readDuplicatesBaseline(fileURLToPath(new URL('./duplicates.json', import.meta.url)));
    expect(baseline.clones).toBeGreaterThanOrEqual(0);
    expect(baseline.duplicatedLines).toBeGreaterThanOrEqual(baseline.clones);
  });
});
