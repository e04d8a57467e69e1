import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sources } from './source-scan.ts';

// Server success messages live in one catalogue (issue 18; packages/shared/src/messages.ts,
// read with `message('<module>.<name>', lang, digits)`). A route file that grows its own table of
// texts again fails here. Text only, no database; runs in both server projects.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const routeFiles = sources(root, 'apps/server/src/modules').filter((s) => s.path.endsWith('.routes.ts'));

/** What a route-local message table or inline translation looks like. */
const PATTERNS: [string, RegExp][] = [
  ['a MESSAGES table', /\bMESSAGES\b/],
  ['a local msg() helper', /\b(?:const|function)\s+msg\b/],
  ['an { en: … } literal', /\ben\s*:\s*['"`]/],
  ['an { ar: … } literal', /\bar\s*:\s*['"`]/],
  ['a text chosen by a language test', /\blang(?:uage)?\s*===?\s*['"`](?:ar|en)['"`]\s*\?\s*['"`]/],
  ['Arabic text', /[\u0600-\u06FF]/],
  // 'OK' is the language-neutral message of the cached reference data and dev routes
  ['a literal envelope message', /\bmessage\s*:\s*(['"`])(?!OK\1)[^'"`]*\1\s*,\s*data\b/],
];

describe('server success messages come from the one catalogue', () => {
  it('finds every route file', () => {
    const modules = readdirSync(fileURLToPath(new URL('../src/modules', import.meta.url)), { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(routeFiles.length).toBeGreaterThanOrEqual(17);
    expect(routeFiles.length).toBeLessThanOrEqual(modules.length);
  });

  it('no route file defines its own message table or inline translation', () => {
    const hits: string[] = [];
    for (const f of routeFiles) {
      const lines = f.text.split('\n');
      lines.forEach((line, i) => {
        for (const [what, re] of PATTERNS) if (re.test(line)) hits.push(`${f.path}:${i + 1} ${what}: ${line.trim()}`);
      });
    }
    expect(hits).toEqual([]);
  });

  it('the scan sees a local table when there is one', () => {
    const sample =
      "const MESSAGES = {\n  saved: { en: 'Saved.', ar: 'تم الحفظ.' },\n} as const;\nreturn { message: req.lang === 'ar' ? 'تم' : 'Done' };\nreturn { message: 'Saved.', data: null };";
    const found = PATTERNS.filter(([, re]) => sample.split('\n').some((l) => re.test(l))).map(([w]) => w);
    expect(found).toEqual(
      expect.arrayContaining([
        'a MESSAGES table',
        'an { en: … } literal',
        'an { ar: … } literal',
        'a text chosen by a language test',
        'Arabic text',
        'a literal envelope message',
      ]),
    );
  });
});
