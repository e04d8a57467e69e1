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
const BUSY = 'A write’s busy state is its mutation’s `isPending` (useMutation, TanStack Query), not a hand-made useState flag.';

/** The pattern issue 51 removed from 16 web files: a useState flag set around the await of a mutation. */
const HAND_MADE_BUSY = `
function CardForm() {
  const add = useMutation({ mutationFn: (body) => unwrap(masar.POST('/api/v1/paymentMethod', { body })) });
  const [busy, setBusy] = useState(false);
  const submit = async (values) => {
    setBusy(true);
    try {
      await add.mutateAsync(values);
    } finally {
      setBusy(false);
    }
  };
  return h(Button, { onClick: submit, loading: busy });
}`;

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

  it('refuse a hand-made busy flag (useState) and point to the mutation’s isPending', () => {
    expect(lint(HAND_MADE_BUSY)).toEqual([BUSY]);
    expect(lint(HAND_MADE_BUSY.replace('const [busy, setBusy] = useState(false);', 'const busy = add.isPending;').replace(/setBusy\(\w+\);/g, ''))).toEqual([]);
    for (const decl of [
      'const [saving, setSaving] = useState(false);',
      'const [isSubmitting, setIsSubmitting] = React.useState<boolean>(false);',
      'const [sending, setSending] = useState(false);',
      'const [busyPlan, setBusyPlan] = useState<string | null>(null);',
      'const [, setWorking] = useState(false);',
    ])
      expect(lint(decl)).toEqual([BUSY]);
  });

  it('leave other state alone: dialogs, timers, hovers, a busy value that is not useState', () => {
    for (const decl of [
      'const [open, setOpen] = useState(false);',
      'const [waiting, setWaiting] = useState(false);',
      'const [hovered, setHovered] = useState(false);',
      'const [leaving, setLeaving] = useState(false);',
      'const busy = save.isPending || send.isPending;',
      'const [busy] = someTuple;',
    ])
      expect(lint(decl)).toEqual([]);
  });
});
