// Flat ESLint config: type-aware where it catches real bugs (floating promises), plus the workflow guard.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['.tmp-*', 'node_modules/**', 'dist/**', '.data/**', 'test-artifacts/**', 'bench/results/**', 'reviewer/static/vendor/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Jest's test()/describe() return nothing, so every promise left floating is a real one.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Workflow code is replayed: no I/O, no Node builtins, no value imports of activities or Node-only modules.
    files: ['workflows/**/*.ts', 'common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'workflow-safe code cannot use Node builtins' },
            { group: ['fs', 'path', 'http', 'https', 'crypto', 'os', 'child_process', 'net'], message: 'no Node builtins in workflow-safe code' },
            { group: ['**/lib/*', '**/gateway/*', '**/api/*', '**/workers/*'], message: 'workflow-safe code cannot import Node-only modules' },
            { group: ['**/activities', '**/activities/*'], message: 'import activities with `import type` only', allowTypeImports: true },
            { group: ['@temporalio/client', '@temporalio/worker', '@temporalio/activity'], message: 'not available inside workflows' },
          ],
        },
      ],
    },
  },
  {
    // A focused test silences the rest of its file, a skipped or todo one silences itself: neither may land.
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          // test.only, it.skip, describe.only.each, test.todo, …
          selector: 'MemberExpression[object.name=/^(test|it|describe)$/][property.name=/^(only|skip|todo)$/]',
          message: 'no focused, skipped or todo tests',
        },
        {
          // Jest's short forms: fit, fdescribe, xit, xtest, xdescribe (and their .each).
          selector: ':matches(CallExpression > Identifier.callee, MemberExpression > Identifier.object)[name=/^(fit|fdescribe|xit|xtest|xdescribe)$/]',
          message: 'no focused or skipped tests',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', console: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
