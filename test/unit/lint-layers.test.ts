import assert from '../support/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';

const repo = join(__dirname, '..', '..');
const eslintBin = join(dirname(require.resolve('eslint/package.json')), 'bin', 'eslint.js');

interface LintedFile {
  filePath: string;
  messages: Array<{ ruleId: string | null; message: string }>;
}

/** Runs the project's ESLint config on `targets` inside `root`: the exit status and the messages by file. */
function lint(
  root: string,
  targets: string[],
): { status: number | null; files: Map<string, LintedFile['messages']>; stderr: string } {
  const run = spawnSync(process.execPath, [eslintBin, '--format', 'json', ...targets], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = run.stdout ? (JSON.parse(run.stdout) as LintedFile[]) : [];
  return {
    status: run.status,
    files: new Map(report.map((file) => [relative(root, file.filePath), file.messages])),
    stderr: run.stderr,
  };
}

/** Files that break a layer rule each, plus a control that keeps to the rules; none exists in the real tree. */
const planted: Record<string, { source: string; rule: string | undefined }> = {
  'lib/planted-imports-workflows.ts': {
    source: "import type { JobMetricsSinks } from '../workflows/job-metrics';\nexport type Sinks = JobMetricsSinks;\n",
    rule: 'no-restricted-imports',
  },
  'common/planted-imports-lib.ts': {
    source: "import { createLogger } from '../lib/logger';\nexport const log = createLogger;\n",
    rule: 'no-restricted-imports',
  },
  'lib/planted-imports-local.ts': {
    source: "import { startLedger } from '../local/ledger/testing';\nexport const ledger = startLedger;\n",
    rule: 'no-restricted-imports',
  },
  'workflows/planted-imports-activity-value.ts': {
    source: "import { createActivities } from '../activities';\nexport const activities = createActivities;\n",
    rule: 'no-restricted-imports',
  },
  'lib/planted-cycle-a.ts': {
    source: "import { b } from './planted-cycle-b';\nexport const a = (): number => b() + 1;\n",
    rule: 'import-x/no-cycle',
  },
  'lib/planted-cycle-b.ts': {
    source: "import { a } from './planted-cycle-a';\nexport const b = (): number => (a.length > 0 ? 1 : 0);\n",
    rule: 'import-x/no-cycle',
  },
  // Allowed: workflows take activities' types, lib takes common.
  'workflows/planted-control.ts': {
    source:
      "import type { JobActivities } from '../activities';\nimport type { JobStep } from '../common/job';\n" +
      'export type Control = keyof JobActivities | JobStep;\n',
    rule: undefined,
  },
};

describe('the layer rules in eslint.config.mjs', () => {
  let scratch = '';

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'slowlane-lint-layers-'));
    for (const file of ['eslint.config.mjs', 'tsconfig.json', 'package.json'])
      cpSync(join(repo, file), join(scratch, file));
    symlinkSync(join(repo, 'node_modules'), join(scratch, 'node_modules'), 'dir');
    for (const folder of ['common', 'workflows'])
      cpSync(join(repo, folder), join(scratch, folder), { recursive: true });
  });

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test('when the copied workflow-safe folders are linted as they are, then lint passes', () => {
    const result = lint(scratch, ['common', 'workflows']);
    assert.equal(
      result.status,
      0,
      `${JSON.stringify([...result.files].filter(([, messages]) => messages.length))}\n${result.stderr}`,
    );
    assert.ok(result.files.size > 10, 'the copied files were linted');
  });

  test('when imports that break the layers are planted, then lint fails with the layer rule on each, and only there', () => {
    for (const [file, { source }] of Object.entries(planted)) {
      mkdirSync(join(scratch, dirname(file)), { recursive: true });
      writeFileSync(join(scratch, file), source);
    }
    const result = lint(scratch, ['common', 'workflows', 'lib']);
    assert.equal(result.status, 1, result.stderr);
    for (const [file, { rule }] of Object.entries(planted)) {
      const rules = (result.files.get(file) ?? []).map((message) => message.ruleId);
      assert.deepEqual(rules, rule ? [rule] : [], `${file}: ${JSON.stringify(result.files.get(file))}`);
    }
    const elsewhere = [...result.files].filter(([file, messages]) => !(file in planted) && messages.length > 0);
    assert.deepEqual(elsewhere, [], 'the real files stay clean');
  });
});
