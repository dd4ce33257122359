import assert from '../support/assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { submitSamples } from '../../local/stack/demo';
import { apiUrl, demo, ledgerEntries } from '../support/api-client';

/** What `npm start` does once the stack is up: the project's samples through the public API. */
describe('npm start\'s sample invoices', () => {
  let samplesDir: string;
  beforeAll(async () => {
    samplesDir = await mkdtemp(join(tmpdir(), 'slowlane-demo-'));
  });
  afterAll(async () => {
    await rm(samplesDir, { recursive: true, force: true });
  });

  test('when the samples are submitted, then each settles as its catalogue expects; submitted again, they are the same jobs', async () => {
    const lines: string[] = [];
    const options = { apiUrl: apiUrl(), apiKey: demo.apiKey, samplesDir, report: (line: string) => lines.push(line) };
    const first = await submitSamples(options);
    assert.ok(first.length >= 5, `samples submitted: ${lines.join('\n')}`);
    for (const job of first) assert.equal(job.status, job.expected, `${job.fileName} (${job.jobId})`);
    const expected = new Set(first.map((job) => job.expected));
    for (const outcome of ['posted', 'awaiting_review', 'rejected']) assert.ok(expected.has(outcome), `a sample that ends ${outcome}`);
    assert.ok(lines.some((line) => /awaiting_review$/.test(line)), 'progress lines name the statuses');

    const again = await submitSamples({ ...options, report: (line: string) => lines.push(line) });
    assert.deepEqual(
      again.map((job) => job.jobId),
      first.map((job) => job.jobId),
      'a second npm start finds the same jobs by their content-derived keys',
    );
    assert.ok(lines.some((line) => line.includes('(already known)')));
    for (const job of first.filter((j) => j.expected === 'posted')) {
      assert.equal((await ledgerEntries(job.jobId)).length, 1, `${job.fileName} posted exactly once`);
    }
  });
});
