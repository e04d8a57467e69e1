// ESLint flat config: typed typescript-eslint for every workspace. The layout rules (SQL only in
// repositories, web layers, no cycles) are dependency-cruiser's: .dependency-cruiser.cjs.
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/*.cjs', 'e2e/artifacts/**', 'tools/**/fixtures/**', 'packages/api-client/src/schema.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      '@typescript-eslint/only-throw-error': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Number inputs and time fields write the reader's digit system (issue 9, docs/i18n.md):
    // Mantine's own do not. The two wrappers are the only files that import Mantine's.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/components/NumberInput.tsx', 'apps/web/src/components/DateTimePicker.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@mantine/core',
              importNames: ['NumberInput'],
              message: 'Use NumberInput from components/NumberInput: it shows the reader’s digit system (Arabic-Indic or Western).',
            },
            {
              name: '@mantine/dates',
              importNames: ['DateTimePicker', 'TimePicker', 'InlineDateTimePicker', 'TimeInput', 'TimeGrid'],
              message:
                'Use DateTimePicker / TimePicker from components/DateTimePicker: their hour and minute fields show the reader’s digit system (Arabic-Indic or Western).',
            },
          ],
        },
      ],
    },
  },
  {
    // The web calls the API only through the generated typed client (lib/api's `masar`, openapi-fetch
    // over packages/api-client's paths; issue 18): no raw fetch, no second client, no asserted answers.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/api.ts', 'apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='fetch'], CallExpression[callee.property.name='fetch'][callee.object.name=/^(globalThis|window|self)$/]",
          message: 'Call the API through `masar` (lib/api): its paths, bodies and answers are typed from the OpenAPI document.',
        },
        {
          selector: "NewExpression[callee.name='XMLHttpRequest']",
          message: 'Call the API through `masar` (lib/api).',
        },
        {
          selector: "ImportDeclaration[source.value='openapi-fetch']",
          message: 'lib/api creates the one client (`masar`) with the token, language and error handling; import it from there.',
        },
        {
          selector: 'TSAsExpression > AwaitExpression > CallExpression[callee.name=/^unwrap/], TSAsExpression > CallExpression[callee.name=/^unwrap/]',
          message: 'An API answer takes its type from the schema: no `as` on unwrap(...).',
        },
        {
          selector: 'CallExpression[callee.name=/^unwrap/][typeArguments]',
          message: 'An API answer takes its type from the schema: no type arguments on unwrap(...).',
        },
        {
          // Writes go through TanStack Query's useMutation (issue 18): busy state, errors and cache
          // refresh in one place. Allowed only inside a `mutationFn`; the session layer
          // (lib/session.tsx: guest sign-in, logout) and the few helpers a mutationFn calls say so
          // with an eslint-disable comment giving the reason.
          selector:
            "CallExpression[callee.name='unwrap'][arguments.0.callee.object.name='masar'][arguments.0.callee.property.name=/^(POST|PUT|PATCH|DELETE)$/]:not(Property[key.name='mutationFn'] *)",
          message: 'Make API writes inside a useMutation `mutationFn` (TanStack Query), not inline.',
        },
        {
          // ...and the busy state of a write is that mutation's `isPending` (issue 51): no hand-made
          // `const [busy, setBusy] = useState(false)` set around an await. Several writes: combine their
          // isPending; follow-up work that must keep the button busy (a cache refresh) goes in the
          // mutation's own `onSuccess`, which the mutation awaits.
          selector:
            "VariableDeclarator[id.type='ArrayPattern']:matches([init.callee.name='useState'], [init.callee.property.name='useState']):matches([id.elements.0.name=/^(is)?(busy|saving|submitting|sending|working)/i], [id.elements.1.name=/^set(is)?(busy|saving|submitting|sending|working)/i])",
          message: 'A write’s busy state is its mutation’s `isPending` (useMutation, TanStack Query), not a hand-made useState flag.',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
