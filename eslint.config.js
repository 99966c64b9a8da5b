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
      // `(x) => void work(x)` style callbacks are the norm for event handlers here.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      'no-console': 'off',
      // Conflicts with no-non-null-assertion (it rewrites `x as T` to `x!`); we ban `!` and narrow with real checks instead.
      '@typescript-eslint/non-nullable-type-assertion-style': 'off',
    },
  },
);
