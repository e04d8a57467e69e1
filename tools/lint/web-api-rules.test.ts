import { describe, expect, it } from 'vitest';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import config from '../../eslint.config.js';

/**
 * The web's API rules in eslint.config.js (issue 18), run on small snippets: the `no-restricted-syntax`
 * entry of the apps/web block, with the TypeScript parser (no type information needed).
 */
const webBlock = config.find((c) => c.files?.includes('apps/web/src/**/*.{ts,tsx}') && c.rules?.['no-restricted-syntax']);
const linter = new Linter({ configType: 'flat' });
const lint = (code: string) =>
  linter
    .verify(
      code,
      [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: { 'no-restricted-syntax': webBlock!.rules!['no-restricted-syntax'] } }],
      'x.ts',
    )
    .map((m) => m.message);
const WRITE = 'Make API writes inside a useMutation `mutationFn` (TanStack Query), not inline.';

describe('web API lint rules', () => {
  it('refuse a write made inline', () => {
    expect(webBlock).toBeTruthy();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      expect(lint(`const go = () => unwrap(masar.${method}('/api/v1/x', { body: {} }));`)).toEqual([WRITE]);
    expect(lint(`async function f() { await unwrap(masar.POST(\`/api/v1/x/\${a}\`)); }`)).toEqual([WRITE]);
  });

  it('allow a write inside a mutationFn (useMutation or mutationOptions), however deep, and reads anywhere', () => {
    expect(lint(`useMutation({ mutationFn: (id) => unwrap(masar.DELETE('/api/v1/x/{id}', { params: { path: { id } } })) });`)).toEqual([]);
    expect(
      lint(`mutationOptions({ mutationFn: async (v) => { const a = await unwrap(masar.POST('/a')); return v ? unwrap(masar.PATCH('/b')) : a; } });`),
    ).toEqual([]);
    expect(lint(`const read = () => unwrap(masar.GET('/api/v1/x'));`)).toEqual([]);
  });

  it('allow a write with a disable comment saying why (the session layer)', () => {
    expect(lint(`// eslint-disable-next-line no-restricted-syntax -- session layer\nconst out = () => unwrap(masar.POST('/api/v1/account/logout'));`)).toEqual(
      [],
    );
  });
});
