import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'src/generated/', 'test/generated/', 'web/src/generated/', 'dist/', 'test-artifacts/', '.data/', 'tmp/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      // A `let` that a closure reads before its one assignment (services wired to each other) must stay a let.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  { files: ['scripts/**', 'bench/**', 'examples/**'], rules: { 'no-console': 'off' } },
  // Plain JavaScript examples meant to be copied as they are: Node's globals, as any Node program has them.
  { files: ['examples/**/*.mjs'], languageOptions: { globals: { process: 'readonly', Buffer: 'readonly', console: 'readonly', fetch: 'readonly' } } },
  // Tools' configuration files that must be CommonJS (dependency-cruiser's).
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } } },
  // Tests read loosely shaped JSON answers; typing every body would add noise, not safety.
  {
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      // Files run one after another in a worker that keeps its modules (isolate: false): an override of the
      // shared fixtures would reach the next files too.
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name=/^(override|scoped)$/]", message: 'derive the fixtures with testWith() (test/support/fixtures.ts): an override stays for the next files of the worker' },
      ],
    },
  },
);
