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
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
