import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.autojoin-sync/**', '.ci/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Counts and sizes read naturally in messages; objects and unknowns still need String().
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // Arrow shorthands such as `(chunk) => write(chunk)` are the norm for event handlers here.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      'no-console': 'off',
      // An empty string means unset for env vars and action inputs (GitHub passes '' for one not given), so `||` on strings is deliberate.
      '@typescript-eslint/prefer-nullish-coalescing': ['error', { ignorePrimitives: { string: true } }],
      // The records deleted from are JSON-shaped dictionaries (the emulator's data file, an env); a Map would need converting at every I/O edge.
      '@typescript-eslint/no-dynamic-delete': 'off',
      // Conflicts with no-non-null-assertion (it rewrites `x as T` to `x!`); we ban `!` and narrow with real checks instead.
      '@typescript-eslint/non-nullable-type-assertion-style': 'off',
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // vitest's asymmetric matchers (expect.any, expect.stringMatching) are typed `any` inside expected objects.
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
);
