import assert from '../support/assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { submitSamples } from '../../local/stack/demo';
import type { JobProgress } from '../../common/job';
import { DEMO_SCHEDULE_ID, submitDigestDemo } from '../../local/stack/demo-digest';
import { schedulesApi } from '../support/tickets';
import { apiUrl, demo, ledgerEntries, waitForJob } from '../support/api-client';

/** What `npm start` does once the stack is up: the project's samples through the public API. */
describe('npm start\'s sample invoices, orders, call and long document', () => {
  let samplesDir: string;
  beforeAll(async () => {
    samplesDir = await mkdtemp(join(tmpdir(), 'slowlane-demo-'));
  });
  afterAll(async () => {
    await rm(samplesDir, { recursive: true, force: true });
  });

  test('when the samples are submitted, then each settles as its catalogue expects; submitted again, they are the same jobs', async () => {
    const lines: string[] = [];
    const options = { apiUrl: apiUrl(), apiKey: demo.apiKey, samplesDir, report: (line: string) => lines.push(line), longDocumentPages: 6 };
    const first = await submitSamples(options);
    assert.ok(first.length >= 6, `samples submitted: ${lines.join('\n')}`);
    // The long document is submitted beside the invoices; nothing waits for it, so it is followed here.
    const document = first.find((job) => job.jobId.startsWith('document:demo:'));
    assert.ok(document, `the long document is submitted: ${lines.join('\n')}`);
    const finished = await waitForJob(document.jobId, ['completed', 'failed', 'dead_letter'], 180_000);
    assert.equal(finished.status, 'completed', JSON.stringify(finished));
    const progress = finished.progress as JobProgress;
    assert.deepEqual([progress.pagesRead, progress.done], [6, progress.total]);
    for (const job of first.filter((j) => j !== document)) assert.equal(job.status, job.expected, `${job.name} (${job.jobId})`);
    const types = new Set(first.map((job) => job.jobId.slice(0, job.jobId.indexOf(':'))));
    assert.deepEqual([...types].sort(), ['call.transcribe', 'document', 'invoice', 'order.score'], 'a job of every type but the digest (its own demo)');
    // The sample call's summary is printed once it is done: the agent's promise, and a follow-up.
    assert.ok(lines.some((line) => /support-call-order-date\.wav: follow_up · /.test(line)), lines.join('\n'));
    assert.ok(lines.some((line) => /- I will send you the invoice by email this afternoon\./.test(line)), lines.join('\n'));
    // The call heard poorly waits in review beside the completed one, so the reviewer page has a call to play.
    assert.ok(first.some((job) => job.name === 'support-call-bad-line.wav' && job.status === 'awaiting_review'), lines.join('\n'));
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
      assert.equal((await ledgerEntries(job.jobId)).length, 1, `${job.name} posted exactly once`);
    }
  });

  test('when the digest demo runs, then its day of tickets is digested, its schedule exists, and a second run finds both again', async () => {
    const lines: string[] = [];
    const options = { apiUrl: apiUrl(), apiKey: demo.apiKey, samplesDir, report: (line: string) => lines.push(line) };
    const first = await submitDigestDemo(options);
    assert.equal(first.status, 'completed', lines.join('\n'));
    assert.match(first.narrative ?? '', /^3000 tickets arrived/);
    assert.equal(first.scheduleId, DEMO_SCHEDULE_ID);
    const schedule = await schedulesApi<{ input: { jobId: string }; cron: string }>('GET', `/schedules/${DEMO_SCHEDULE_ID}`);
    assert.equal(schedule.status, 200);
    assert.deepEqual(schedule.body.input, { jobId: first.jobId });
    const again = await submitDigestDemo(options);
    assert.equal(again.jobId, first.jobId);
    assert.ok(lines.some((line) => line.includes('(already known)')));
    await schedulesApi('DELETE', `/schedules/${DEMO_SCHEDULE_ID}`);
  });
});
