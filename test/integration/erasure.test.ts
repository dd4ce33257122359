import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { jobFootprint, type JobFootprint } from '../../lib/erasure/job-executions';
import { batchLaneKeys } from '../../common/batch-lane';
import type { JobErasure } from '../../common/api-contract/erasure';
import { documentObjectPrefix } from '../../common/job-types/document/object-prefix';
import { digestContentPrefix } from '../../common/job-types/tickets-digest/object-prefix';
import { loadConfig } from '../../lib/config';
import { createObjectStore, objectKeys, type ObjectStore } from '../../lib/object-store';
import { renderLongDocument } from '../../local/samples/long-document';
import { acme, apiUrl, demo, getJob, ledgerEntries, submit, waitForJob } from '../support/api-client';
import { markedInvoice, temporalClient } from '../support/operations';
import { testEnv } from '../support/test-env';
import { ticketsDay } from '../support/tickets';

let client: Client;
let store: ObjectStore;

beforeAll(async () => {
  client = await temporalClient();
  store = createObjectStore(loadConfig(testEnv().productEnv ?? {}));
});
afterAll(async () => {
  await client.connection.close();
});

async function erase(jobId: string, apiKey = demo.apiKey): Promise<{ status: number; body: JobErasure & { error?: { code: string } }; headers: Headers }> {
  const response = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${apiKey}`, 'x-request-id': `erasure-test-${randomUUID()}` },
  });
  return { status: response.status, body: (await response.json()) as JobErasure & { error?: { code: string } }, headers: response.headers };
}

async function bucketKeys(): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const key of store.list('')) keys.add(key);
  return keys;
}

/** The job's keys as the product lays them out: the test's own reading of where a job writes, not the erasure's. */
function keysOfJob(all: Set<string>, job: { tenantId: string; jobId: string; sha256: string }, footprint: JobFootprint): string[] {
  // Not the entries' spend holds: billing records that erasure keeps.
  const laneKeys = new Set([...footprint.customIds].flatMap((id) => [batchLaneKeys.request(id), batchLaneKeys.answer(id)]));
  const prefixes = [
    `${documentObjectPrefix(job.tenantId, job.jobId)}/`,
    objectKeys.input(job.tenantId, job.sha256),
    objectKeys.text(job.tenantId, job.sha256),
  ];
  return [...all].filter((key) => laneKeys.has(key) || prefixes.some((prefix) => key.startsWith(prefix)));
}

/** The server deletes a closed execution once its queues acknowledge the close (about a second on the test stack). */
async function deletedInTime({ workflowId, runId }: { workflowId: string; runId: string }): Promise<boolean> {
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    try {
      await client.workflow.getHandle(workflowId, runId).describe();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return true;
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/** Visibility forgets a deleted execution a moment after the server does. */
async function listedRuns(workflowId: string, waitForNone = false): Promise<number> {
  const until = Date.now() + 20_000;
  for (;;) {
    let runs = 0;
    for await (const _ of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs++;
    if (!waitForNone || runs === 0 || Date.now() > until) return runs;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function submitted(answer: Awaited<ReturnType<typeof submit>>): Promise<string> {
  assert.equal(answer.status, 202, JSON.stringify(answer.body));
  return answer.body.jobId as string;
}

async function sha256Of(jobId: string): Promise<string> {
  const memo = (await client.workflow.getHandle(jobId).describe()).memo as { inputSha256?: string };
  assert.ok(memo.inputSha256);
  return memo.inputSha256;
}

describe('DELETE /jobs/:id on the real stack (API, Temporal, S3)', () => {
  test('when a posted invoice is erased, then its objects and executions are gone, the ledger entry stays, and other jobs keep theirs', async () => {
    const erased = await submitted(await submit((await markedInvoice(`erase-${randomUUID()}`)).bytes, { fileName: 'erase.txt' }));
    const other = await submitted(await submit((await markedInvoice(`keep-${randomUUID()}`)).bytes, { fileName: 'keep.txt' }));
    assert.equal((await waitForJob(erased, ['posted', 'failed', 'awaiting_review'])).status, 'posted');
    assert.equal((await waitForJob(other, ['posted', 'failed', 'awaiting_review'])).status, 'posted');
    const job = { tenantId: 'demo', jobId: erased, sha256: await sha256Of(erased) };
    const footprint = await jobFootprint(client, { workflowId: erased, runId: (await client.workflow.getHandle(erased).describe()).runId });
    const before = await bucketKeys();
    const jobKeys = keysOfJob(before, job, footprint);
    const otherKeys = keysOfJob(before, { tenantId: 'demo', jobId: other, sha256: await sha256Of(other) }, await jobFootprint(client, { workflowId: other, runId: (await client.workflow.getHandle(other).describe()).runId }));
    assert.ok(jobKeys.includes(objectKeys.input('demo', job.sha256)), 'the upload is in the bucket before');
    assert.ok(jobKeys.some((key) => key.startsWith(objectKeys.text('demo', job.sha256))), 'so is its extracted text');
    assert.ok(footprint.executions.length >= 1);
    assert.equal(await listedRuns(erased), 1);

    const answer = await erase(erased);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(answer.headers.get('x-request-id')?.startsWith('erasure-test-'));
    assert.deepEqual(answer.body, { jobId: erased, erased: { objects: jobKeys.length, executions: footprint.executions.length }, kept: { sharedObjects: 0 } });
    assert.equal((await getJob(erased)).status, 404, 'a GET after it is a 404 like any unknown job, at once');

    const after = await bucketKeys();
    assert.deepEqual(keysOfJob(after, job, footprint), [], 'nothing of the job is left in the bucket');
    const removed = [...before].filter((key) => !after.has(key) && !key.startsWith('batch-lane/requests/') && !key.startsWith('batch-lane/creating/'));
    assert.deepEqual(removed.sort(), jobKeys.filter((key) => !key.startsWith('batch-lane/requests/')).sort(), 'only the job’s objects went');
    for (const key of otherKeys) assert.ok(after.has(key), `another job's ${key} stays`);
    for (const execution of footprint.executions) assert.ok(await deletedInTime(execution), `${execution.workflowId} is deleted`);
    assert.equal(await listedRuns(erased, true), 0, 'visibility no longer lists it');
    assert.equal((await getJob(other)).status, 200);
    assert.equal((await ledgerEntries(erased)).length, 1, 'the ledger’s posted entry stays: a record of accounts');

    const again = await erase(erased);
    assert.equal(again.status, 404, 'a second DELETE finds nothing to erase');
    assert.equal(again.body.error?.code, 'not_found');
  });

  test('when another tenant asks to erase a job, then it answers 404 like an unknown job and erases nothing', async () => {
    const jobId = await submitted(await submit((await markedInvoice(`foreign-${randomUUID()}`)).bytes, { fileName: 'foreign.txt' }));
    await waitForJob(jobId, ['posted', 'failed', 'awaiting_review']);
    const sha256 = await sha256Of(jobId);

    const foreign = await erase(jobId, acme.apiKey);
    assert.equal(foreign.status, 404);
    assert.deepEqual(foreign.body.error?.code, 'not_found');
    const unknown = await erase(`invoice:acme:never-${randomUUID()}`, acme.apiKey);
    assert.deepEqual([unknown.status, unknown.body.error?.code], [404, 'not_found'], 'the same answer as for a job that does not exist');
    const reviewer = await erase(jobId, demo.reviewerToken);
    assert.ok([401, 403].includes(reviewer.status), 'a reviewer cannot erase');
    assert.equal((await getJob(jobId)).status, 200);
    assert.ok(await store.exists(objectKeys.input('demo', sha256)));

    assert.equal((await erase(jobId)).status, 200);
  });

  test('when two jobs share an upload, then erasing one keeps the shared upload for the other, and erasing the last removes it', async () => {
    const { bytes } = await markedInvoice(`shared-${randomUUID()}`);
    const first = await submitted(await submit(bytes, { fileName: 'shared.txt' }));
    const second = await submitted(await submit(bytes, { fileName: 'shared.txt' }));
    await waitForJob(first, ['posted', 'failed', 'awaiting_review']);
    await waitForJob(second, ['posted', 'failed', 'awaiting_review']);
    const input = objectKeys.input('demo', await sha256Of(first));

    const one = await erase(first);
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.ok(one.body.kept.sharedObjects >= 1, JSON.stringify(one.body));
    assert.ok(await store.exists(input), 'the other job still reads the upload');
    const document = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(second)}/document`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
    assert.equal(document.status, 200);
    await document.body?.cancel();

    const last = await erase(second);
    assert.equal(last.status, 200);
    assert.equal(last.body.kept.sharedObjects, 0);
    assert.equal(await store.exists(input), false, 'the last job took the upload with it');
  });

  test('when two digests of the same tickets are erased one by one, then each takes its own answers and the last the shared batches', async () => {
    const { bytes } = ticketsDay(30, Math.floor(Math.random() * 1_000_000), `erase-${randomUUID().slice(0, 8)}-`);
    const fields = { type: 'tickets.digest', priority: 'interactive' };
    const first = await submitted(await submit(bytes, { fileName: 'tickets.jsonl', fields }));
    const second = await submitted(await submit(bytes, { fileName: 'tickets.jsonl', fields }));
    assert.equal((await waitForJob(first, ['completed', 'failed', 'dead_letter'], 120_000)).status, 'completed');
    assert.equal((await waitForJob(second, ['completed', 'failed', 'dead_letter'], 120_000)).status, 'completed');
    const content = `${digestContentPrefix('demo', await sha256Of(first))}.`;
    const named = (jobId: string) => `.${encodeURIComponent(jobId)}.`;
    const before = await keysUnder(content);
    assert.ok(before.some((key) => key.includes(named(first))) && before.some((key) => key.includes(named(second))), 'each job wrote its own answers');

    const one = await erase(first);
    assert.equal(one.status, 200, JSON.stringify(one.body));
    const between = await keysUnder(content);
    assert.deepEqual(between.filter((key) => key.includes(named(first))), [], 'the first job’s answers are gone');
    assert.deepEqual(between, before.filter((key) => !key.includes(named(first))), 'the shared batches and the second job’s answers stay');
    assert.equal(one.body.kept.sharedObjects, between.filter((key) => !key.includes(named(second))).length + 1, 'the batches and facts, and the upload');

    const last = await erase(second);
    assert.equal(last.status, 200, JSON.stringify(last.body));
    assert.deepEqual(await keysUnder(content), []);
  });

  test('when a job is erased while its model call runs, then it is cancelled and nothing of it remains', async () => {
    const marker = `inflight-${randomUUID()}`;
    // The simulator holds the job's first call for a minute: it is surely mid-step when the erasure comes.
    const rule = await fetch(`${testEnv().simulatorUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { textIncludes: marker }, fault: { kind: 'slow', delayMs: 60_000 }, times: 1 }),
    });
    assert.equal(rule.status, 201);
    const { id } = (await rule.json()) as { id: string };
    try {
      const jobId = await submitted(await submit((await markedInvoice(marker)).bytes, { fileName: 'inflight.txt' }));
      const running = await waitForJob(jobId, ['processing'], 30_000);
      assert.ok(running.step, JSON.stringify(running));
      const sha256 = await sha256Of(jobId);

      const answer = await erase(jobId);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.ok(answer.body.erased.executions >= 1);
      assert.ok(answer.body.erased.objects >= 1, 'at least the upload');
      assert.equal((await getJob(jobId)).status, 404);
      assert.equal(await store.exists(objectKeys.input('demo', sha256)), false);
      assert.deepEqual(await keysUnder(objectKeys.text('demo', sha256)), []);
      assert.equal(await listedRuns(jobId, true), 0);
    } finally {
      await fetch(`${testEnv().simulatorUrl}/_sim/faults/${id}`, { method: 'DELETE' });
    }
  });

  test('when a document job that fanned out into children and the batch lane is erased, then its chunks, vectors, lane entries and children are gone', async () => {
    const jobId = await submitted(await submit(await renderLongDocument(4), { fileName: 'erase.pdf', fields: { type: 'document' } }));
    const done = await waitForJob(jobId, ['completed', 'failed', 'dead_letter'], 170_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const footprint = await jobFootprint(client, { workflowId: jobId, runId: (await client.workflow.getHandle(jobId).describe()).runId });
    assert.ok(footprint.executions.some((execution) => execution.workflowId.startsWith(`${jobId}:chunks:`)), 'chunk groups ran as children');
    assert.ok(footprint.customIds.size > 0, 'the summaries took the batch lane');
    const job = { tenantId: 'demo', jobId, sha256: await sha256Of(jobId) };
    const before = await bucketKeys();
    const jobKeys = keysOfJob(before, job, footprint);
    assert.ok(jobKeys.some((key) => key.endsWith('/chunks.jsonl')), 'chunks and vectors are in the bucket before');
    assert.ok(jobKeys.some((key) => key.startsWith('batch-lane/answers/')), 'so are its batch answers');

    const answer = await erase(jobId);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.erased, { objects: jobKeys.length, executions: footprint.executions.length });
    const after = await bucketKeys();
    assert.deepEqual(keysOfJob(after, job, footprint), [], 'nothing of the job is left in the bucket');
    for (const execution of footprint.executions) assert.ok(await deletedInTime(execution), `${execution.workflowId} is deleted`);
    assert.equal((await getJob(jobId)).status, 404);
  });
});

async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  return keys;
}
