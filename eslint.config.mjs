// Flat ESLint config: type-aware where it catches real bugs (floating promises), the workflow guard, and the layers.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The layers, as one table: what each product folder may import from the other top-level folders (a row for a
 * narrower glob overrides its folder's). Anything not listed is refused, `local/`, `test/` and `bench/` above all:
 * they exist only on a laptop or in CI. `typesOf` folders may be imported with `import type` only.
 */
const LAYERS = [
  { files: 'common', may: [], why: 'workflow-safe: pure, bundled into workflows' },
  { files: 'lib', may: ['common'], why: 'Node-only infrastructure under everything' },
  { files: 'gateway', may: ['common', 'lib'], why: 'the one door to the model provider' },
  { files: 'activities', may: ['common', 'lib', 'gateway'], why: 'all I/O, built from injected clients' },
  { files: 'workers', may: ['common', 'lib', 'gateway', 'activities'], why: 'process wiring at the top' },
  { files: 'workflows', may: ['common'], typesOf: ['activities'], why: 'replayed: deterministic orchestration only' },
  // api serves the reviewer page, so it builds its bundle (reviewer/build.ts), and types the workflows it starts.
  { files: 'api', may: ['common', 'lib', 'ops', 'reviewer'], typesOf: ['workflows'], why: 'the thin HTTP API' },
  { files: 'cli', may: ['common', 'lib'], why: 'an HTTP client: shapes from common/, its settings from lib/config' },
  { files: 'reviewer', may: ['common', 'lib'], why: 'the reviewer page and its build' },
  { files: 'reviewer/browser', may: ['common'], intoParent: false, why: 'runs in the browser' },
  { files: 'ops', may: ['common', 'lib'], why: 'operator library code, also used by the API' },
  // The capacity command prints the gateway's plan for the extraction's token sizes.
  { files: 'ops/capacity-*.ts', may: ['common', 'lib', 'gateway', 'activities'], why: 'the capacity plan command' },
  // The worker build's manifests carry the same plan as their KEDA replica cap.
  { files: 'ops/worker-build-*.ts', may: ['common', 'lib', 'gateway', 'activities'], why: 'the k8s worker build command' },
  // Reconciliation reads the spend store's totals beside the jobs' recorded usage.
  { files: 'ops/spend-reconcile*.ts', may: ['common', 'lib', 'gateway'], why: 'the spend reconciliation command' },
  // The patch report reads the register of the workflows' patches (data, no workflow code) beside visibility.
  { files: 'ops/patch*.ts', may: ['common', 'lib', 'workflows'], why: 'the patch report' },
  // The speech callback reads the finished transcript through the speech door to complete the activity waiting on it.
  { files: 'api/speech/*.ts', may: ['common', 'lib', 'gateway'], why: 'the speech provider callback' },
  // Records histories by running the workflow on the workflow tier's fake activities: a developer's tool.
  { files: 'ops/record-histories.ts', may: ['common', 'lib', 'workflows', 'test'], why: 'history recording' },
];
const PRODUCT_FOLDERS = [...new Set(LAYERS.map(({ files }) => files.split('/')[0]))];
const TOP_FOLDERS = [...PRODUCT_FOLDERS, 'local', 'test', 'bench'];
const WORKFLOW_SAFE = ['common', 'workflows'];

// Replayed code may not reach Node: the workflow bundler refuses builtins anyway, lint says so before a test runs.
const workflowSafePatterns = [
  { group: ['node:*'], message: 'workflow-safe code cannot use Node builtins' },
  {
    group: ['fs', 'path', 'http', 'https', 'crypto', 'os', 'child_process', 'net'],
    message: 'no Node builtins in workflow-safe code',
  },
  {
    group: ['@temporalio/client', '@temporalio/worker', '@temporalio/activity'],
    message: 'not available inside workflows',
  },
];

/** Relative imports climb to the top folder (`../lib/x`, `../../lib`); no nested folder shares a top folder's name. */
const topFolderImport = (folder) => `^(\\.\\./)+${folder}(/|$)`;

function layerBlock({ files, may, typesOf = [], intoParent = true, why }) {
  const own = files.split('/')[0];
  const allowed = [...may.map((folder) => `${folder}/`), ...typesOf.map((folder) => `types of ${folder}/`)];
  const rule = `${files} (${why}) imports only ${allowed.join(', ') || 'itself'}`;
  const patterns = TOP_FOLDERS.filter((folder) => folder !== own && !may.includes(folder)).map((folder) => ({
    regex: topFolderImport(folder),
    message: rule,
    ...(typesOf.includes(folder) ? { allowTypeImports: true } : {}),
  }));
  // A sub-folder that is a layer of its own may not reach into its parent folder's files either.
  if (!intoParent) patterns.push({ regex: '^\\.\\./(?!\\.\\./)', message: rule });
  if (WORKFLOW_SAFE.includes(own)) patterns.push(...workflowSafePatterns);
  return {
    files: [files.includes('.') ? files : `${files}/**/*.{ts,js,mjs}`],
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
}

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
    // Cycles make import order matter and blur which layer owns what. The rule skips type-only imports. Product
    // folders only: on local/, test/ and bench/ too it cost a quarter more lint time (30 s instead of 24 s).
    files: PRODUCT_FOLDERS.map((folder) => `${folder}/**/*.ts`),
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json'] })],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  ...LAYERS.map(layerBlock),
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
