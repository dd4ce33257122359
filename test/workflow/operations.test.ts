import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, defaultPayloadConverter } from '@temporalio/common';
import type { Counter, Histogram } from 'prom-client';
import { LedgerRejectedError, ModelRequestInvalidError, ModelUnavailableError, WebhookRejectedError } from '../../common/errors';
import type { JobError, JobState } from '../../common/job';
import { abandonUpdate, retryUpdate, statusQuery, submitReviewUpdate } from '../../common/messages';
import { ErrorTypeKey, JobStatusKey, JobStepKey, StatusSinceKey } from '../../common/search-attributes';
import { replayJob } from '../../ops/replay';
import { isEncrypted } from '../../lib/payload-codec/encryption-codec';
import { modelCallOptions } from '../../workflows/activity-options';
import { fakeActivities, sampleInvoice, validExtraction } from '../support/fake-activities';
import { testDataConverter } from '../support/test-codec';
import { createWorkflowHarness, type WorkflowHarness, waitForStatus, waitForStatusAttribute } from '../support/workflow-harness';

/** The value of one labelled series, 0 when it has not been written yet. */
async function counterValue(metric: Counter<string>, labels: Record<string, string>): Promise<number> {
  const { values } = await metric.get();
  return values.find((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want))?.value ?? 0;
}

async function observations(metric: Histogram<string>, labels: Record<string, string>): Promise<number> {
  const { values } = await metric.get();
  const count = values.find(
    (v) => v.metricName?.endsWith('_count') && Object.entries(labels).every(([k, want]) => v.labels[k] === want),
  );
  return count?.value ?? 0;
}

/** Sinks run when a workflow task completes, a moment after the client may have seen its effect. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`never true: ${what}`);
}

describe('what the invoice workflow shows operators', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  test('when a step fails for good, then memo and search attributes carry the error until a retry clears it', async () => {
    const fake = fakeActivities({ ledgerFailures: [new LedgerRejectedError('the ledger answered 422: period closed')] });
    await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      const before = Date.now();
      await waitForStatus(handle, 'dead_letter');
      const parked = await handle.describe();
      const error = (parked.memo as { error?: JobError }).error;
      assert.equal(error?.type, 'LedgerRejectedError');
      assert.equal(error?.step, 'postInvoiceToLedger');
      assert.match(error?.message ?? '', /period closed/);
      assert.equal(parked.typedSearchAttributes.get(JobStatusKey), 'dead_letter');
      assert.equal(parked.typedSearchAttributes.get(JobStepKey), 'postInvoiceToLedger');
      assert.equal(parked.typedSearchAttributes.get(ErrorTypeKey), 'LedgerRejectedError');
      const since = parked.typedSearchAttributes.get(StatusSinceKey);
      assert.ok(since instanceof Date, 'StatusSince says how long the job has been parked');
      assert.ok(Math.abs(since.getTime() - before) < 60_000, `StatusSince ${since.toISOString()} is about now`);

      await handle.executeUpdate(retryUpdate, { args: [{ operator: 'ops' }] });
      assert.equal((await handle.result()).status, 'posted');
      const done = await handle.describe();
      assert.equal((done.memo as { error?: JobError }).error, undefined, 'the error leaves the memo once retried');
      assert.equal(done.typedSearchAttributes.get(ErrorTypeKey), undefined);
      assert.equal(done.typedSearchAttributes.get(JobStatusKey), 'posted');
    });
  });

  test('when a model step fails every attempt with a retryable error, then the job parks after the retry policy gives up, with the attempts it took', async () => {
    const maximumAttempts = modelCallOptions.retry?.maximumAttempts;
    assert.ok(maximumAttempts !== undefined && maximumAttempts > 1, 'model calls are retried a bounded number of times');
    // Thrown as the real gateway throws it: the worker's failure interceptor turns it into a retryable
    // ApplicationFailure whose nextRetryDelay is the (short) retry-after.
    const fake = fakeActivities({
      extractions: Array.from({ length: maximumAttempts }, (_v, i) => new ModelUnavailableError(`provider answered 529 (call ${i + 1})`, { retryAfterMs: 10 })),
    });
    const { parked, memoError, error } = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'dead_letter');
      const parked = await handle.query(statusQuery);
      const memoError = ((await handle.describe()).memo as { error?: JobError }).error;
      await handle.executeUpdate(abandonUpdate, { args: [{ operator: 'ops', reason: 'provider down all day' }] });
      return { parked, memoError, error: await handle.result().then(() => undefined, (e: unknown) => e) };
    });
    assert.equal(parked.status, 'dead_letter');
    assert.equal(parked.error?.type, 'ModelUnavailableError');
    assert.equal(parked.error?.step, 'extractInvoiceFields');
    assert.equal(parked.error?.retryable, true, 'the error was retryable; the attempts ran out');
    assert.equal(parked.error?.attempts, maximumAttempts);
    assert.match(parked.error?.message ?? '', new RegExp(`call ${maximumAttempts}\\)`), 'the error is the last attempt\'s');
    assert.equal(memoError?.attempts, maximumAttempts, 'operators see the attempts in the memo without a worker');
    assert.equal(fake.calls.extractInvoiceFields, maximumAttempts, 'each attempt called the step once, and no more were made');
    assert.equal(fake.calls.postInvoiceToLedger, 0);
    assert.ok(error instanceof WorkflowFailedError && error.cause instanceof ApplicationFailure);
    assert.equal(error.cause.type, 'ModelUnavailableError');
  });

  test('when a dead letter is left alone until DEAD_LETTER_TIMEOUT, then the workflow fails with "dead letter expired" and posts nothing', async () => {
    const { metrics } = harness.telemetry;
    const expiredLabels = { step: 'extractInvoiceFields', outcome: 'expired' };
    const expiredBefore = await counterValue(metrics.deadLetterDecisions, expiredLabels);
    // A valid answer is scripted after the refusal: if expiry ran the step again, the job would post.
    const fake = fakeActivities({
      extractions: [new ModelRequestInvalidError('provider answered 400'), validExtraction(sampleInvoice, 0.97)],
    });
    const error = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start({ deadLetterTimeoutMs: 1_500 });
      await waitForStatus(handle, 'dead_letter');
      return handle.result().then(() => undefined, (e: unknown) => e);
    });
    assert.ok(error instanceof WorkflowFailedError, `the workflow closed as failed: ${String(error)}`);
    assert.ok(error.cause instanceof ApplicationFailure);
    assert.equal(error.cause.type, 'ModelRequestInvalidError');
    assert.match(error.cause.message, /^extractInvoiceFields failed: provider answered 400 \(dead letter expired\)$/);
    assert.equal(error.cause.nonRetryable, true);
    const [state] = error.cause.details as [JobState];
    assert.equal(state.status, 'failed');
    assert.equal(state.error?.step, 'extractInvoiceFields');
    assert.match(state.error?.message ?? '', /dead letter expired/);
    assert.deepEqual(
      state.events.map((event) => event.status),
      ['processing', 'processing', 'processing', 'dead_letter', 'failed'],
    );
    assert.equal(fake.calls.extractInvoiceFields, 1, 'the failed step did not run again');
    assert.equal(fake.calls.postInvoiceToLedger, 0);
    assert.deepEqual(fake.posted, [], 'nothing was posted');
    await eventually(
      async () => (await counterValue(metrics.deadLetterDecisions, expiredLabels)) === expiredBefore + 1,
      'the expiry is counted as a dead-letter decision',
    );
  });

  test('when replay is asked for a workflow that is not a job (a failed webhook delivery), then it is left alone', async () => {
    const fake = fakeActivities();
    const activities = {
      ...fake.activities,
      deliverWebhook: async (): Promise<never> => {
        throw new WebhookRejectedError('the receiver answered 410 Gone');
      },
    };
    await harness.withWorker(activities, async (start) => {
      const handle = await start({ callbackUrl: 'http://127.0.0.1:9/hook' });
      await handle.result();
      const history = await handle.fetchHistory();
      const deliveryId = history.events?.find((event) => event.startChildWorkflowExecutionInitiatedEventAttributes)
        ?.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
      assert.ok(deliveryId, 'the posted job started a webhook delivery');
      const delivery = harness.env.client.workflow.getHandle(deliveryId);
      await assert.rejects(delivery.result(), WorkflowFailedError);
      const failedRun = (await delivery.describe()).runId;

      const outcome = await replayJob(harness.env.client, deliveryId, {
        namespace: harness.env.namespace ?? 'default',
        operator: 'test',
        reason: 'not a job',
      });
      assert.equal(outcome.action, 'not_found', JSON.stringify(outcome));
      assert.equal((await delivery.describe()).runId, failedRun, 'no reset started a new run');
    });
  });

  test('when a job runs, then every activity carries a one-line summary for the Web UI', async () => {
    const fake = fakeActivities();
    const history = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start({ document: { ...documentNamed('acme-november.pdf') } });
      await handle.result();
      return handle.fetchHistory();
    });
    // Summaries are stored encrypted like every payload; the codec (as the Web UI's codec endpoint does) reads them.
    const codec = testDataConverter().payloadCodecs?.[0];
    assert.ok(codec);
    const summaries = await Promise.all(
      (history.events ?? [])
        .filter((event) => event.activityTaskScheduledEventAttributes)
        .map(async (event) => {
          const payload = event.userMetadata?.summary;
          if (!payload) return undefined;
          assert.ok(isEncrypted(payload), 'the summary is ciphertext on the server');
          const [decoded] = await codec.decode([payload]);
          return decoded ? defaultPayloadConverter.fromPayload<string>(decoded) : undefined;
        }),
    );
    assert.equal(summaries.length, 4);
    assert.match(summaries[0] ?? '', /^Extract text · acme-november\.pdf/);
    assert.match(summaries[1] ?? '', /^Classify · acme-november\.pdf/);
    assert.match(summaries[2] ?? '', /^Extract invoice fields · acme-november\.pdf · try 1 of 3/);
    assert.match(summaries[3] ?? '', new RegExp(`^Post ${sampleInvoice.invoiceNumber} · ${sampleInvoice.totalAmount} EUR`));
  });

  test('when jobs post, park, retry and wait for review, then the job metrics count each of them', async () => {
    const { metrics } = harness.telemetry;
    const posted = { job_type: 'invoice', priority: 'interactive', status: 'posted' };
    const parkedLabels = { step: 'extractInvoiceFields', error_type: 'ModelRequestInvalidError', priority: 'interactive' };
    const before = {
      posted: await counterValue(metrics.jobsFinished, posted),
      parked: await counterValue(metrics.deadLetters, parkedLabels),
      retried: await counterValue(metrics.deadLetterDecisions, { step: 'extractInvoiceFields', outcome: 'retry' }),
      reviews: await observations(metrics.reviewWait, { outcome: 'approved' }),
      durations: await observations(metrics.jobDuration, posted),
      steps: await observations(metrics.stepDuration, { step: 'extractText', outcome: 'completed' }),
    };
    const fake = fakeActivities({
      extractions: [new ModelRequestInvalidError('provider answered 400'), validExtraction(sampleInvoice, 0.5)],
    });
    // Waits read the server (JobStatus), not the status query: this test counts what the workflow reports through
    // sinks exactly once (test/support/workflow-harness.ts).
    await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatusAttribute(handle, 'dead_letter');
      await handle.executeUpdate(retryUpdate, { args: [{ operator: 'ops' }] });
      await waitForStatusAttribute(handle, 'awaiting_review');
      await handle.executeUpdate(submitReviewUpdate, { args: [{ decision: 'approve', fields: sampleInvoice, reviewer: 'rita' }] });
      await handle.result();
    });
    await eventually(async () => (await counterValue(metrics.jobsFinished, posted)) === before.posted + 1, 'one more posted job');
    assert.equal(await counterValue(metrics.deadLetters, parkedLabels), before.parked + 1);
    assert.equal(await counterValue(metrics.deadLetterDecisions, { step: 'extractInvoiceFields', outcome: 'retry' }), before.retried + 1);
    assert.equal(await observations(metrics.reviewWait, { outcome: 'approved' }), before.reviews + 1);
    assert.equal(await observations(metrics.jobDuration, posted), before.durations + 1);
    assert.equal(await observations(metrics.stepDuration, { step: 'extractText', outcome: 'completed' }), before.steps + 1);
  });
});

function documentNamed(fileName: string) {
  return {
    bucket: 'slowlane',
    key: 'inputs/test/abc',
    sha256: 'abc',
    contentType: 'application/pdf' as const,
    sizeBytes: 1000,
    fileName,
  };
}
