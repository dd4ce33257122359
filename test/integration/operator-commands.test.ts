import assert from '../support/assert';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import { submit, waitForJob } from '../support/api-client';
import { admin } from '../support/operations';
import { sampleWith } from '../support/samples';
import { testEnv } from '../support/test-env';
import { PATCHES } from '../../workflows/patches';

const REPO_ROOT = join(__dirname, '..', '..');

/**
 * `npm run <script> -- …` as docs/operations.md prints it, in a shell that has none of the product's settings: only
 * where the stack is (`npm start`'s would be the defaults; the test stack's ports and data folder are its own).
 */
function operatorCommand(script: string, args: string[], stack: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...stack },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

function stackLocation(): { TEMPORAL_ADDRESS: string; SLOWLANE_DATA_DIR: string } {
  const { productEnv } = testEnv();
  assert.ok(productEnv?.TEMPORAL_ADDRESS && productEnv.SLOWLANE_DATA_DIR, 'needs the stack that `npm test` starts');
  return { TEMPORAL_ADDRESS: productEnv.TEMPORAL_ADDRESS, SLOWLANE_DATA_DIR: productEnv.SLOWLANE_DATA_DIR };
}

describe('operator commands with no settings (real stack)', () => {
  test("when `npm run replay -- <jobId>` runs with none of the servers' settings, then it reads the job with the stack's codec keys", async () => {
    const sample = await sampleWith('posted', false);
    const submitted = await submit(sample.bytes, { fileName: sample.fileName });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    await waitForJob(jobId, ['posted']);

    const run = await operatorCommand('replay', [jobId], stackLocation());
    assert.doesNotMatch(run.output, /Invalid configuration/);
    // Describing the job decodes its memo, which the stack wrote encrypted: this line needs the right keys.
    assert.match(run.output, new RegExp(`refused\\s+${jobId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s.*finished as posted`), run.output);
    assert.equal(run.code, 1, 'a refused job is not a success');

    // Without the stack's data folder there are no keys: the same command cannot read the encrypted job.
    const elsewhere = await mkdtemp(join(tmpdir(), 'slowlane-no-keys-'));
    try {
      const keyless = await operatorCommand('replay', [jobId], { ...stackLocation(), SLOWLANE_DATA_DIR: elsewhere, SLOWLANE_ENV: 'local' });
      assert.equal(keyless.code, 1);
      assert.doesNotMatch(keyless.output, /finished as posted/, keyless.output);
      assert.match(keyless.output, /encrypted/i, keyless.output);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  test('when `npm run codec-key -- rotate` runs against the stack, then an operator reads its one record (who, key ids, no key) through GET /admin/audit', async () => {
    const { productEnv } = testEnv();
    const bucket = Object.fromEntries(Object.entries(productEnv ?? {}).filter(([name]) => /^(S3_|PAYLOAD_CODEC_|OBJECT_STORE_|SLOWLANE_ENV$)/.test(name)));
    const operator = `ops-${Date.now()}`;
    const run = await operatorCommand('codec-key', ['rotate', '--json', '--operator', operator, '--id', `kaudit${Date.now()}`], { ...stackLocation(), ...bucket });
    assert.equal(run.code, 0, run.output);
    // stderr is in the output too (the AWS SDK warns about the Node version): the JSON is the line that is an object.
    const printed = JSON.parse(run.output.split('\n').find((line) => line.startsWith('{')) ?? '') as { newKeyId: string; retiringKeyId: string; keys: Record<string, string>; auditRecordId: string };

    const answer = await admin<{ records: Array<Record<string, unknown>> }>('GET', `/admin/audit?tenant=_platform&actor=${operator}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const [record, ...more] = answer.body.records;
    assert.deepEqual(more, []);
    assert.equal(record?.recordId, printed.auditRecordId);
    assert.equal(record?.action, 'codec-key.rotate');
    assert.deepEqual(record?.actor, { kind: 'operator', id: operator, via: 'cli' });
    assert.equal(record?.outcome, 'done');
    assert.deepEqual((record?.details as Record<string, unknown>).newKeyId, printed.newKeyId);
    assert.deepEqual((record?.details as Record<string, unknown>).keyIds, Object.keys(printed.keys).join(','));
    for (const key of Object.values(printed.keys)) assert.ok(!JSON.stringify(answer.body).includes(key), 'no key material in the record');
  });

  test('when `npm run ops -- patches` runs with no settings, then it exits 0 with a verdict for every registered patch, counting the runs started on old code', async () => {
    // A job that stays running (it waits for a reviewer): an invoice started now, after every invoice patch's day.
    const sample = await sampleWith('awaiting_review');
    const submitted = await submit(sample.bytes, { fileName: sample.fileName });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    await waitForJob(submitted.body.jobId as string, ['awaiting_review']);
    const invoiceOnly = PATCHES.tenantsTakeTurnsAtFirstModelCall;
    assert.deepEqual(invoiceOnly.workflowTypes, ['invoiceWorkflow']);

    const run = await operatorCommand('ops', ['patches'], stackLocation());
    assert.equal(run.code, 0, run.output);
    assert.doesNotMatch(run.output, /Invalid configuration/);
    const lineOf = (output: string, id: string) => output.split('\n').find((text) => text.startsWith(`${id} `)) ?? '';
    for (const record of Object.values(PATCHES)) {
      const line = lineOf(run.output, record.id);
      assert.match(line, new RegExp(`${record.shipped.date} ${record.shipped.commit}\\b.*\\s(may be retired|keep|may be removed|keep deprecated)\\s`), `${record.id} in:\n${run.output}`);
    }
    // The retention is the test stack's namespace's (temporal-dev.yaml), read from the server.
    assert.match(run.output, /within the retention \(7 d\)/, run.output);
    assert.match(lineOf(run.output, invoiceOnly.id), /\s0\s+may be retired\s/, 'the waiting invoice started after the patch shipped');

    // Builds that (say) took ten years to reach the workers: the same waiting invoice ran old code, so it counts.
    const late = await operatorCommand('ops', ['patches', '--deploy-lag', '3650d'], stackLocation());
    assert.equal(late.code, 0, late.output);
    assert.match(lineOf(late.output, invoiceOnly.id), /\s[1-9]\d*: \S.*\s+keep\s/, late.output);
  });
});
