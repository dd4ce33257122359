import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { describe, test } from '@jest/globals';
import { taskQueueFor } from '../../common/task-queues';
import { acme, apiUrl, demo, getJob, ledgerEntries, review, submit, waitForJob, invoiceResult } from '../support/api-client';
import { startExtraApi, startExtraWorker } from '../support/extra-api';
import { temporalClient } from '../support/operations';
import { sampleWith } from '../support/samples';
import { testDataConverter } from '../support/test-codec';

describe('a job through the real stack (API, Temporal, S3, simulator, ledger)', () => {
  test('when a clean invoice is submitted, then it is posted to the ledger exactly once', async () => {
    const sample = await sampleWith('posted');
    const submitted = await submit(sample.bytes, { fileName: sample.fileName });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    assert.equal(submitted.headers.get('location'), submitted.body.links?.self);

    const done = await waitForJob(jobId, ['posted', 'awaiting_review', 'failed', 'rejected']);
    assert.equal(done.status, 'posted', JSON.stringify(done));
    const entries = await ledgerEntries(jobId);
    assert.equal(entries.length, 1);
    assert.equal(entries[0]?.id, invoiceResult(done)?.ledgerEntryId);
    assert.deepEqual(entries[0]?.invoice, invoiceResult(done)?.fields);
    assert.ok((done.usage?.inputTokens ?? 0) > 0, 'token usage is reported on the job');
    const client = await temporalClient();
    try {
      const description = await client.workflow.getHandle(jobId).describe();
      assert.equal(description.taskQueue, taskQueueFor('interactive'), 'no priority given: the interactive queue');
    } finally {
      await client.connection.close();
    }
  });

  test('when a job is submitted with priority=bulk, then the bulk queue runs it and the job says so', async () => {
    const sample = await sampleWith('posted');
    // A deadline inside the batch lane's margin: the job asks live at once (the lane is batch-lane*.test.ts's).
    const deadline = new Date(Date.now() + 60_000).toISOString();
    const submitted = await submit(sample.bytes, { fileName: sample.fileName, fields: { type: 'invoice', priority: 'bulk', deadline } });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    const done = await waitForJob(jobId, ['posted', 'awaiting_review', 'failed', 'rejected']);
    assert.equal(done.status, 'posted', JSON.stringify(done));
    assert.equal(done.priority, 'bulk');
    const client = await temporalClient();
    try {
      const history = await client.workflow.getHandle(jobId).fetchHistory();
      const queues = new Set(
        history.events
          ?.map((event) => event.activityTaskScheduledEventAttributes?.taskQueue?.name)
          .filter((name): name is string => Boolean(name)),
      );
      assert.deepEqual([...queues], [taskQueueFor('bulk')], 'every step ran on the bulk queue');
      assert.equal((await client.workflow.getHandle(jobId).describe()).taskQueue, taskQueueFor('bulk'));
    } finally {
      await client.connection.close();
    }
  });

  test('when an ambiguous invoice is submitted, then it waits for review and the approved edit is what gets posted', async () => {
    const sample = await sampleWith('awaiting_review');
    const { body } = await submit(sample.bytes, { fileName: sample.fileName });
    const jobId = body.jobId as string;
    const waiting = await waitForJob(jobId, ['awaiting_review', 'posted', 'failed']);
    assert.equal(waiting.status, 'awaiting_review', JSON.stringify(waiting));
    assert.equal((await ledgerEntries(jobId)).length, 0, 'nothing is posted before review');
    assert.ok(waiting.reviewDeadline, 'the job says when review expires');
    assert.ok(waiting.extraction, 'the reviewer sees what the model read');

    const fields = {
      invoiceNumber: 'EDITED-42',
      issuer: 'Reviewed Supplier BV',
      issueDate: '2026-11-30',
      dueDate: null,
      currency: 'EUR',
      totalAmount: 1234.56,
      subtotalAmount: null,
      taxAmount: null,
      lineItems: [],
    };
    // Someone else's reviewer sees no such job; a body claiming another reviewer is refused and changes nothing.
    const foreign = await review(jobId, { decision: 'approve', fields }, acme.reviewerToken);
    assert.equal(foreign.status, 404, JSON.stringify(foreign.body));
    const claimed = await review(jobId, { decision: 'approve', fields, reviewer: 'somebody-else' });
    assert.equal(claimed.status, 403, JSON.stringify(claimed.body));
    assert.equal((await getJob(jobId)).body.status, 'awaiting_review');
    const approved = await review(jobId, { decision: 'approve', fields });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.review?.reviewer, demo.reviewer.id, 'the job shows who decided: the signed-in reviewer');

    const posted = await waitForJob(jobId, ['posted', 'failed']);
    assert.equal(posted.status, 'posted');
    assert.equal(posted.review?.reviewer, demo.reviewer.id);
    const entries = await ledgerEntries(jobId);
    assert.equal(entries.length, 1);
    assert.deepEqual(entries[0]?.invoice, fields);
    // The workflow history holds the identity the API set on the Update, not anything the client wrote.
    const client = await temporalClient();
    try {
      const history = await client.workflow.getHandle(jobId).fetchHistory();
      const accepted = (history.events ?? []).filter((event) => event.workflowExecutionUpdateAcceptedEventAttributes);
      assert.equal(accepted.length, 1, 'one decision counted');
      const payload = accepted[0]?.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.args?.payloads?.[0];
      assert.ok(payload);
      // The history holds it encrypted (the payload codec); the test's codec reads it.
      const codec = testDataConverter().payloadCodecs?.[0];
      assert.ok(codec);
      const [decoded] = await codec.decode([payload]);
      const text = Buffer.from(decoded?.data ?? new Uint8Array()).toString('utf8');
      const recorded = JSON.parse(text) as { reviewer?: string };
      assert.equal(recorded.reviewer, demo.reviewer.id);
      assert.ok(!text.includes('somebody-else'), 'the refused claim never reached the workflow');
    } finally {
      await client.connection.close();
    }

    const late = await review(jobId, { decision: 'reject', reason: 'too late' });
    assert.equal(late.status, 409);
    assert.equal(late.body.error?.code, 'not_awaiting_review');
  });

  test('when the reviewer sends fields that break the schema, then it is a 422 naming them and nothing is posted', async () => {
    const sample = await sampleWith('awaiting_review');
    const { body } = await submit(sample.bytes, { fileName: sample.fileName });
    const jobId = body.jobId as string;
    await waitForJob(jobId, ['awaiting_review']);
    const answer = await review(jobId, {
      decision: 'approve',
      fields: { invoiceNumber: '', issuer: 'x', issueDate: '30/11/2026', currency: 'euro', totalAmount: -1 },
    });
    assert.equal(answer.status, 422);
    assert.equal(answer.body.error?.code, 'invalid_fields');
    const errors = (answer.body.error?.details?.errors ?? []) as string[];
    assert.ok(errors.some((e) => e.includes('/issueDate')), errors.join('\n'));
    assert.ok(errors.some((e) => e.includes('/currency')), errors.join('\n'));
    assert.equal((await getJob(jobId)).body.status, 'awaiting_review');

    const rejected = await review(jobId, { decision: 'reject', reason: 'not ours' });
    assert.equal(rejected.status, 200);
    assert.equal((await waitForJob(jobId, ['rejected'])).status, 'rejected');
    assert.equal((await ledgerEntries(jobId)).length, 0);
  });

  test('when 20 identical requests race with one Idempotency-Key, then there is one job and one ledger entry', async () => {
    const sample = await sampleWith('posted');
    const key = `race-${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => submit(sample.bytes, { key, fileName: sample.fileName })),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(20).fill(202),
      JSON.stringify(answers.map((a) => a.body)),
    );
    const jobIds = new Set(answers.map((a) => a.body.jobId));
    assert.equal(jobIds.size, 1);
    const [jobId] = [...jobIds] as [string];
    await waitForJob(jobId, ['posted']);
    assert.equal((await ledgerEntries(jobId)).length, 1);
    // One workflow run did the work: a policy that started or restarted runs per request would show here.
    const client = await temporalClient();
    try {
      const runs: string[] = [];
      for await (const run of client.workflow.list({ query: `WorkflowId = '${jobId}'` })) runs.push(run.runId);
      assert.equal(runs.length, 1, `runs for ${jobId}: ${runs.join(', ')}`);
      const history = await client.workflow.getHandle(jobId).fetchHistory();
      const scheduled = history.events?.filter(
        (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'extractText',
      );
      assert.equal(scheduled?.length, 1, 'the document was read once');
    } finally {
      await client.connection.close();
    }

    const again = await submit(sample.bytes, { key, fileName: sample.fileName });
    assert.equal(again.status, 202);
    assert.equal(again.body.jobId, jobId);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
  });

  test('when no worker polls the job\'s queue, then GET answers from the server alone and the key still finds the job', async () => {
    // An API whose jobs go to task queues no worker polls: the status query has no one to ask.
    const api = await startExtraApi('api-no-worker-get', { TASK_QUEUE_PREFIX: `no-worker-${randomUUID().slice(0, 8)}` });
    const client = await temporalClient();
    try {
      const sample = await sampleWith('posted');
      const key = `no-worker-${randomUUID()}`;
      const submitted = await submit(sample.bytes, { baseUrl: api.url, key, fileName: sample.fileName });
      assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
      assert.equal(submitted.body.status, 'queued');
      const jobId = submitted.body.jobId as string;
      const read = async () => {
        const response = await fetch(`${api.url}/jobs/${encodeURIComponent(jobId)}`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
        assert.equal(response.status, 200);
        return { job: (await response.json()) as { status: string; detailed: boolean; fileName?: string }, retryAfter: response.headers.get('retry-after') };
      };
      const waiting = await read();
      assert.deepEqual(
        { status: waiting.job.status, detailed: waiting.job.detailed, fileName: waiting.job.fileName, retryAfter: waiting.retryAfter },
        { status: 'queued', detailed: false, fileName: sample.fileName, retryAfter: '2' },
      );

      const again = await submit(sample.bytes, { baseUrl: api.url, key });
      assert.equal(again.status, 202);
      assert.equal(again.body.jobId, jobId);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const other = await sampleWith('awaiting_review');
      const conflict = await submit(other.bytes, { baseUrl: api.url, key });
      assert.equal(conflict.status, 409);
      assert.equal(conflict.body.error?.code, 'idempotency_key_reused');

      // A run the server ends (here: terminated by an operator) never wrote a final status of its own.
      await client.workflow.getHandle(jobId).terminate('test: no worker will ever take it');
      const ended = await read();
      assert.equal(ended.job.status, 'failed');
      assert.equal(ended.retryAfter, null, 'nothing more to wait for');
    } finally {
      await client.connection.close();
      await api.stop();
    }
  });

  test('when no worker runs while a reviewer decides, then the API answers 503 instead of hanging, and the decision sent again counts once', async () => {
    // Jobs on queues of their own, so their worker can be stopped without touching the stack's.
    const prefix = `review-no-worker-${randomUUID().slice(0, 8)}`;
    const api = await startExtraApi('api-review-no-worker', { TASK_QUEUE_PREFIX: prefix });
    const workerEnv = { TASK_QUEUE_PREFIX: prefix, WORKER_PRIORITIES: 'interactive' };
    let worker = await startExtraWorker('worker-review-before', workerEnv);
    try {
      const sample = await sampleWith('awaiting_review');
      const jobId = (await submit(sample.bytes, { baseUrl: api.url, fileName: sample.fileName })).body.jobId as string;
      await waitForJob(jobId, ['awaiting_review']);
      await worker.stop();

      const requestId = `decision-${randomUUID()}`;
      const decide = () =>
        fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}/review`, {
          method: 'POST',
          headers: { authorization: `Bearer ${demo.reviewerToken}`, 'content-type': 'application/json', 'idempotency-key': requestId },
          body: JSON.stringify({ decision: 'reject', reason: 'sent while the workers were away' }),
          signal: AbortSignal.timeout(90_000),
        });
      const refused = await decide();
      assert.equal(refused.status, 503);
      const answer = (await refused.json()) as { error: { code: string; message: string } };
      assert.equal(answer.error.code, 'temporal_unavailable');
      assert.match(answer.error.message, /same Idempotency-Key/);

      worker = await startExtraWorker('worker-review-after', workerEnv);
      // The first send may be taken as the worker comes back, before or after this resend: either way it is 200.
      const resent = await decide();
      assert.equal(resent.status, 200, await resent.clone().text());
      const decided = await waitForJob(jobId, ['rejected', 'posted', 'failed']);
      assert.equal(decided.status, 'rejected');
      assert.equal(decided.review?.reason, 'sent while the workers were away');
      // Once the decision closed the job, the same decision sent again is still the job, not a conflict.
      const again = await decide();
      assert.equal(again.status, 200, await again.clone().text());
      assert.equal(((await again.json()) as { status: string }).status, 'rejected');
      assert.equal((await ledgerEntries(jobId)).length, 0);
    } finally {
      await worker.stop();
      await api.stop();
    }
  });

  test('when a plain-text invoice is submitted, then it is read as text and goes through the pipeline', async () => {
    const sample = await sampleWith('posted', false);
    const { status, body } = await submit(sample.bytes, { fileName: sample.fileName });
    assert.equal(status, 202);
    const done = await waitForJob(body.jobId as string, ['posted', 'awaiting_review', 'failed', 'rejected']);
    assert.ok(['posted', 'awaiting_review'].includes(done.status ?? ''), JSON.stringify(done));
  });

  test('when the document is not an invoice, then the job ends rejected with the reason', async () => {
    const sample = await sampleWith('rejected');
    const { body } = await submit(sample.bytes, { fileName: sample.fileName });
    const done = await waitForJob(body.jobId as string, ['rejected', 'posted', 'failed', 'awaiting_review']);
    assert.equal(done.status, 'rejected');
    assert.equal(done.error?.type, 'NotAnInvoice');
  });
});
