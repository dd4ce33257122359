import assert from '../support/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';

const REPO_ROOT = join(__dirname, '..', '..');

describe('JSON logs', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'log-in-a-span.ts')], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'info' },
  });
  const lines = run.stdout.trim().split('\n');
  const span = lines.find((line) => line.startsWith('SPAN '))?.split(' ');
  const entries = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);

  test('when a line is logged inside a span, then it carries the trace and span id beside tenant, job and step', () => {
    assert.equal(run.status, 0, run.stderr);
    const inside = entries.find((entry) => entry.msg === 'inside a span');
    assert.ok(inside && span, run.stdout);
    assert.equal(inside.trace_id, span[1]);
    assert.equal(inside.span_id, span[2]);
    assert.equal(inside.tenantId, 'demo');
    assert.equal(inside.jobId, 'invoice:demo:k1');
    assert.equal(inside.step, 'extractInvoiceFields');
    const outside = entries.find((entry) => entry.msg === 'outside any span');
    assert.ok(outside);
    assert.equal(outside.trace_id, undefined);
  });

  test('when secrets are logged in fields, headers, Secret values or the whole config, then none of them appears', () => {
    for (const secret of [
      'sk-ant-plain-field',
      'demo-key-in-header',
      'whsec_plain',
      'reviewer-plain',
      'wrapped-secret',
      'sk-ant-in-config',
      'page-token-secret-in-config',
      'tenant-api-key-in-config',
      'slowlane-local-secret',
    ]) {
      assert.ok(!run.stdout.includes(secret), `${secret} leaked into the log`);
    }
    assert.match(run.stdout, /\[redacted\]/);
  });
});
