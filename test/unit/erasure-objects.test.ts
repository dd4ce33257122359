import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import type { Client } from '@temporalio/client';
import { erasureMarks } from '../../lib/erasure/erasure-marks';
import { jobObjects } from '../../lib/erasure/job-objects';
import { batchLaneKeys } from '../../common/batch-lane';
import { documentJobType } from '../../common/job-types/document/definition';
import { invoiceJobType } from '../../common/job-types/invoice/definition';
import { ticketsDigestJobType } from '../../common/job-types/tickets-digest/definition';
import { objectKeys } from '../../lib/object-store';
import { memoryStore } from '../support/memory-store';

const SHA = 'a'.repeat(64);

/** Visibility and schedules as the erasure reads them: the tenant's other executions with their memo, no schedules. */
function fakeClient(others: Array<{ workflowId: string; inputSha256?: string; closeTime?: Date }>): Client {
  async function* list() {
    for (const other of others) yield { workflowId: other.workflowId, runId: `run-${other.workflowId}`, closeTime: other.closeTime, memo: { inputSha256: other.inputSha256 } };
  }
  async function* none() {}
  return { workflow: { list }, schedule: { list: none } } as unknown as Client;
}

function storeWith(keys: string[]) {
  const store = memoryStore();
  for (const key of keys) store.objects.set(key, Buffer.from('x'));
  return store;
}

describe('which objects an erasure deletes', () => {
  test('when a document job is erased, then its own prefix and its lane entries go but their spend holds stay, and another job’s prefix stays', async () => {
    const jobId = 'document:demo:one';
    const own = [`documents/demo/${encodeURIComponent(jobId)}/chunks/0.txt`, `documents/demo/${encodeURIComponent(jobId)}/summary.json`];
    const otherJob = `documents/demo/${encodeURIComponent('document:demo:two')}/summary.json`;
    const lane = [batchLaneKeys.answer('c1')];
    const store = storeWith([...own, otherJob, ...lane, batchLaneKeys.spendHold('c1'), objectKeys.input('demo', SHA), batchLaneKeys.answer('c2')]);
    const found = await jobObjects(
      { client: fakeClient([]), store, marks: erasureMarks(store) },
      { tenantId: 'demo', jobId, definition: documentJobType, memo: { inputSha256: SHA }, customIds: new Set(['c1']) },
    );
    assert.deepEqual(found.erasable.sort(), [...own, objectKeys.input('demo', SHA), ...lane].sort());
    assert.deepEqual(found.shared, []);
  });

  test('when another job of the tenant has the same upload, then the upload and text stay and only what names the job goes', async () => {
    const jobId = 'tickets.digest:demo:one';
    const batches = `digests/demo/${SHA}.lines-1`;
    const keys = [
      objectKeys.input('demo', SHA),
      `${objectKeys.text('demo', SHA)}.v2`,
      `${batches}/facts.json`,
      `${batches}/batch-0000.txt`,
      `${batches}/batch-0000.txt.${encodeURIComponent(jobId)}.summary.json`,
      `${batches}/batch-0000.txt.${encodeURIComponent('tickets.digest:demo:two')}.summary.json`,
    ];
    const store = storeWith(keys);
    const job = { tenantId: 'demo', jobId, definition: ticketsDigestJobType, memo: { inputSha256: SHA }, customIds: new Set<string>() };
    const client = fakeClient([{ workflowId: 'tickets.digest:demo:two', inputSha256: SHA }]);
    const found = await jobObjects({ client, store, marks: erasureMarks(store) }, job);
    assert.deepEqual(found.erasable, [`${batches}/batch-0000.txt.${encodeURIComponent(jobId)}.summary.json`]);
    assert.equal(found.shared.length, 4, 'the upload, its text, the facts and the batch; the other job’s answer is its own');
  });

  test('when the only other job with the upload was erased and awaits deletion, then the upload goes too', async () => {
    const store = storeWith([objectKeys.input('demo', SHA)]);
    const marks = erasureMarks(store);
    await marks.mark('demo', 'invoice:demo:two', ['run-invoice:demo:two']);
    const client = fakeClient([{ workflowId: 'invoice:demo:two', inputSha256: SHA, closeTime: new Date() }]);
    const found = await jobObjects({ client, store, marks }, { tenantId: 'demo', jobId: 'invoice:demo:one', definition: invoiceJobType, memo: { inputSha256: SHA }, customIds: new Set() });
    assert.deepEqual(found.erasable, [objectKeys.input('demo', SHA)]);
  });
});

describe('erasure marks', () => {
  test('when a run was erased, then it is hidden however long ago it closed; a new run under the same id is not', async () => {
    const store = memoryStore();
    const marks = erasureMarks(store);
    await marks.mark('demo', 'invoice:demo:k', ['r1']);
    const now = new Date();
    assert.equal(await marks.hides('demo', { workflowId: 'invoice:demo:k', runId: 'r1', closeTime: now }), true);
    assert.equal(await marks.hides('demo', { workflowId: 'invoice:demo:k', runId: 'r2', closeTime: now }), false, 'a new job under the same key');
    assert.equal(await marks.hides('demo', { workflowId: 'invoice:demo:k', runId: 'r1', closeTime: undefined }), false, 'a running job was not erased');
    assert.equal(await marks.hides('demo', { workflowId: 'invoice:demo:k', runId: 'r1', closeTime: new Date(Date.now() - 30 * 86_400_000) }), true);
    assert.ok([...store.objects.keys()].every((key) => !key.includes('invoice')), 'the mark does not name the job');
    await marks.clear('demo', 'invoice:demo:k');
    assert.equal(store.objects.size, 0);
  });
});
