import { describe, test } from '@jest/globals';
import { TRANSCRIBE_PAGE_TOOL } from '../../activities/document/prompts';
import { demo, apiUrl, submit, waitForJob } from '../support/api-client';
import assert from '../support/assert';
import { temporalClient } from '../support/operations';
import { mixedPdfOf, pngOf } from '../support/scans';
import { testEnv } from '../support/test-env';

interface UploadRecord {
  id: string;
  filename: string;
  reads: number;
  deleted: boolean;
}

const sim = (path: string, init?: RequestInit) => fetch(`${testEnv().simulatorUrl}${path}`, init);
const uploadLog = async (): Promise<UploadRecord[]> => ((await (await sim('/_sim/files')).json()) as { uploads: UploadRecord[] }).uploads;
const providerFileIds = async (): Promise<string[]> => {
  const response = await sim('/v1/files?limit=1000', { headers: { 'x-api-key': 'k', 'anthropic-beta': 'files-api-2025-04-14' } });
  return ((await response.json()) as { data: Array<{ id: string }> }).data.map((file) => file.id);
};
/** The uploads made since `before` (the simulator's log is shared by the whole run; these tests run one at a time). */
const uploadsSince = async (before: readonly UploadRecord[]): Promise<UploadRecord[]> => {
  const seen = new Set(before.map((upload) => upload.id));
  return (await uploadLog()).filter((upload) => !seen.has(upload.id));
};

/** Scans through the real stack with MODEL_FILES_API on (the default): uploaded once, named by id, deleted at the end. */
describe("scans on the provider's Files API", () => {
  test('when a scanned document runs and one page’s call is retried, then each page is uploaded once, read by id, and nothing is left at the end', async () => {
    const before = await uploadLog();
    // One transcription answers 529 once: its step retries and names the same file again instead of uploading.
    const rule = await sim('/_sim/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { tool: TRANSCRIBE_PAGE_TOOL.name }, fault: { kind: 'overloaded' }, times: 1 }),
    });
    assert.equal(rule.status, 201);
    const { id: ruleId } = (await rule.json()) as { id: string };
    try {
      const pdf = await mixedPdfOf(['text', 'scan', 'text', 'scan', 'scan']);
      // Interactive: its calls go live (a bulk document's go through the batch lane, which keeps scans inline).
      const submitted = await submit(pdf, { fileName: 'scanned.pdf', fields: { type: 'document', priority: 'interactive' } });
      assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
      const jobId = submitted.body.jobId as string;
      const done = await waitForJob(jobId, ['completed', 'failed', 'dead_letter'], 180_000);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      // The cleanup runs once the job has told its client it ended: wait for the run to close.
      const client = await temporalClient();
      try {
        await client.workflow.getHandle(jobId).result();
      } finally {
        await client.connection.close();
      }
    } finally {
      await sim(`/_sim/faults/${ruleId}`, { method: 'DELETE' });
    }
    const uploads = await uploadsSince(before);
    assert.equal(uploads.length, 3, JSON.stringify(uploads));
    assert.equal(new Set(uploads.map((upload) => upload.filename)).size, 3);
    // Three pages read once each, and the retried page once more by the same id.
    assert.deepEqual(uploads.map((upload) => upload.reads).sort(), [1, 1, 2]);
    assert.ok(uploads.every((upload) => upload.deleted), JSON.stringify(uploads));
    const left = await providerFileIds();
    assert.deepEqual(uploads.filter((upload) => left.includes(upload.id)), []);
  }, 240_000);

  test('when a scanned invoice runs to review, then its scan is uploaded once for classify and extract; erasing the job deletes it', async () => {
    const before = await uploadLog();
    const submitted = await submit(new Uint8Array(pngOf(400, 300)), { fileName: 'scan.png' });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    const waiting = await waitForJob(jobId, ['awaiting_review', 'posted', 'failed', 'rejected']);
    assert.equal(waiting.status, 'awaiting_review', JSON.stringify(waiting));
    const [upload, ...more] = await uploadsSince(before);
    assert.ok(upload);
    assert.deepEqual(more, []);
    assert.equal(upload.reads, 2, 'classify and extract both name it');
    // Still waiting on a reviewer: its file stays until the job ends.
    assert.ok((await providerFileIds()).includes(upload.id));

    const erased = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}`, { method: 'DELETE', headers: { authorization: `Bearer ${demo.apiKey}` } });
    assert.equal(erased.status, 200, await erased.text());
    assert.equal((await providerFileIds()).includes(upload.id), false);
    assert.equal((await uploadsSince(before)).length, 1);
  }, 120_000);
});
