// ESLint decides correctness, Prettier formatting (eslint-config-prettier turns off the rules they
// would both judge). Run by `npm run lint`, which `npm test` calls.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'contract/openapi.d.ts',
      '.ci/**',
      'data/**',
      'tests/e2e/.screenshots/**',
      'bench/out/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-control-regex': 'off', // the contract's text rules name control characters on purpose
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['admin/**/*.{ts,tsx}', 'portal/**/*.{ts,tsx}', 'contract/ui/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  prettier,
);
