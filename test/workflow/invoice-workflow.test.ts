import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { WorkflowFailedError, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  BudgetUnavailableError,
  ContentRefusedError,
  DocumentTooLargeError,
  InvalidDocumentError,
  LedgerRejectedError,
  ModelRateLimitedError,
  ModelUnavailableError,
  TokenBudgetExhaustedError,
} from '../../common/errors';
import type { JobState } from '../../common/job';
import { abandonUpdate, retryUpdate, statusQuery, submitReviewUpdate } from '../../common/messages';
import { modelCallOptions } from '../../workflows/activity-options';
import { fakeActivities, sampleInvoice, validExtraction } from '../support/fake-activities';
import { createWorkflowHarness, type WorkflowHarness, waitForStatus } from '../support/workflow-harness';

describe('invoiceWorkflow with mocked activities', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  /** The history of a confident invoice that posted. */
  async function postedHistory() {
    return harness.withWorker(fakeActivities().activities, async (start) => {
      const handle = await start();
      await handle.result();
      return handle.fetchHistory();
    });
  }

  test('when every field is confident, then the invoice is posted once without review', async () => {
    const fake = fakeActivities();
    const state = await harness.withWorker(fake.activities, async (start) => (await start()).result());
    assert.equal(state.status, 'posted');
    assert.deepEqual(fake.posted, [sampleInvoice]);
    assert.deepEqual(state.result, { fields: sampleInvoice, ledgerEntryId: 'led_1' });
    assert.equal(state.usage.calls, 2);
    assert.equal(state.usage.inputTokens, 2000);
  });

  test('when a job runs, then its text is read before any model call and its first model call waits behind started jobs', async () => {
    const history = await postedHistory();
    const keys = (history.events ?? []).flatMap((event) => {
      const scheduled = event.activityTaskScheduledEventAttributes;
      return scheduled ? [[scheduled.activityType?.name, scheduled.priority?.priorityKey]] : [];
    });
    // Lower goes first: tenants take turns at classifyDocument (fairness keys order tasks of one priority key only).
    assert.deepEqual(keys, [
      ['extractText', 2],
      ['classifyDocument', 3],
      ['extractInvoiceFields', 2],
      ['postInvoiceToLedger', 1],
    ]);
  });

  test('when a job posts, then its search attributes are written when its status changes, not at every step', async () => {
    const history = await postedHistory();
    // Each upsert is a visibility write on the server; the steps in between are the status query's. (The SDK's own
    // upserts, TemporalChangeVersion at each patch's first use, carry no JobStatus.)
    const written = (history.events ?? []).flatMap((event) => {
      const status = event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.JobStatus;
      return status?.data ? [Buffer.from(status.data).toString()] : [];
    });
    assert.deepEqual(written, ['"processing"', '"posted"']);
  });

  test('when confidence is low, then it waits for review and posts the fields the reviewer approved', async () => {
    const fake = fakeActivities({ extractions: [validExtraction(sampleInvoice, 0.6)] });
    const edited = { ...sampleInvoice, totalAmount: 125.5 };
    const state = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'awaiting_review');
      assert.equal(fake.calls.postInvoiceToLedger, 0);
      const outcome = await handle.executeUpdate(submitReviewUpdate, {
        args: [{ decision: 'approve', fields: edited, reviewer: 'rita' }],
      });
      assert.equal(outcome.accepted, true);
      return handle.result();
    });
    assert.equal(state.status, 'posted');
    assert.deepEqual(fake.posted, [edited]);
    assert.equal(state.review?.reviewer, 'rita');
  });

  test('when extractText finds a scan, then both model steps are given the scan (not text) and low confidence goes to review', async () => {
    const visual = { key: 'inputs/t/scan', mediaType: 'image/png' as const, pages: 1, sizeBytes: 5000 };
    const fake = fakeActivities({ extractText: [{ textKey: 'texts/t/scan.txt', visual }], extractions: [validExtraction(sampleInvoice, 0)] });
    await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'awaiting_review');
      await handle.terminate('the test has seen enough');
    });
    assert.deepEqual(
      fake.modelInputs.map(({ step, input }) => [step, input.textKey, input.visual]),
      [
        ['classifyDocument', 'texts/t/scan.txt', visual],
        ['extractInvoiceFields', 'texts/t/scan.txt', visual],
      ],
    );
  });

  test('when a scanned invoice is cancelled in review, then the job ends cancelled and deletes its uploaded scans once', async () => {
    const visual = { key: 'inputs/t/scan', mediaType: 'application/pdf' as const, pages: 2, sizeBytes: 5000 };
    const fake = fakeActivities({ extractText: [{ textKey: 'texts/t/scan.txt', visual }], extractions: [validExtraction(sampleInvoice, 0)] });
    const state = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'awaiting_review');
      assert.equal(fake.calls.deleteJobProviderFiles, 0, 'a job waiting on review still reads its scan');
      await handle.cancel();
      return handle.result();
    });
    assert.equal(state.status, 'cancelled');
    assert.equal(fake.calls.deleteJobProviderFiles, 1);
  });

  test('when an invoice with text posts, then there are no uploads to delete and no cleanup step runs', async () => {
    const fake = fakeActivities();
    const state = await harness.withWorker(fake.activities, async (start) => (await start()).result());
    assert.equal(state.status, 'posted');
    assert.equal(fake.calls.deleteJobProviderFiles, 0);
  });

  test('when the document has text, then the model steps get no visual field', async () => {
    const fake = fakeActivities();
    await harness.withWorker(fake.activities, async (start) => (await start()).result());
    assert.deepEqual(fake.modelInputs.map(({ input }) => 'visual' in input), [false, false]);
  });

  test('when the reviewer rejects, then nothing is posted and the job ends rejected', async () => {
    const fake = fakeActivities({ extractions: [validExtraction(sampleInvoice, 0.5)] });
    const state = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'awaiting_review');
      await handle.executeUpdate(submitReviewUpdate, { args: [{ decision: 'reject', reason: 'duplicate', reviewer: 'rita' }] });
      return handle.result();
    });
    assert.equal(state.status, 'rejected');
    assert.equal(state.review?.reason, 'duplicate');
    assert.equal(fake.calls.postInvoiceToLedger, 0);
  });

  test('when nobody reviews before the deadline, then the job ends review_expired and posts nothing', async () => {
    const fake = fakeActivities({ extractions: [validExtraction(sampleInvoice, 0.5)] });
    const state = await harness.withWorker(fake.activities, async (start) =>
      (await start({ reviewTimeoutMs: 1_500 })).result(),
    );
    assert.equal(state.status, 'review_expired');
    assert.equal(fake.calls.postInvoiceToLedger, 0);
  });

  test('when review fields break the schema, then the update is refused with the errors and the job keeps waiting', async () => {
    const fake = fakeActivities({ extractions: [validExtraction(sampleInvoice, 0.5)] });
    await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'awaiting_review');
      const bad = { ...sampleInvoice, currency: 'euro', totalAmount: 'lots' as unknown as number };
      const error = await handle
        .executeUpdate(submitReviewUpdate, { args: [{ decision: 'approve', fields: bad, reviewer: 'rita' }] })
        .then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof WorkflowUpdateFailedError, `expected WorkflowUpdateFailedError, got ${String(error)}`);
      assert.ok(error.cause instanceof ApplicationFailure);
      assert.equal(error.cause.type, 'InvalidReviewFields');
      assert.match(error.cause.message, /\/currency/);
      assert.match(error.cause.message, /\/totalAmount/);
      const state: JobState = await handle.query(statusQuery);
      assert.equal(state.status, 'awaiting_review');
      await handle.signal('rejected', { reason: 'test over', reviewer: 'rita' });
      await handle.result();
    });
  });

  test('when a decision arrives after the job moved on, then the update says it is not awaiting review and who decided', async () => {
    const fake = fakeActivities({
      extractions: [validExtraction(sampleInvoice, 0.5)],
      ledgerFailures: [new LedgerRejectedError('ledger answered 422')],
    });
    await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'awaiting_review');
      await handle.executeUpdate(submitReviewUpdate, { args: [{ decision: 'approve', fields: sampleInvoice, reviewer: 'rita' }] });
      await waitForStatus(handle, 'dead_letter');
      const error = await handle
        .executeUpdate(submitReviewUpdate, { args: [{ decision: 'reject', reason: 'late', reviewer: 'sam' }] })
        .then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof WorkflowUpdateFailedError, `expected WorkflowUpdateFailedError, got ${String(error)}`);
      assert.ok(error.cause instanceof ApplicationFailure);
      assert.equal(error.cause.type, 'NotAwaitingReview');
      assert.match(error.cause.message, /dead_letter \(decided by rita\)/);
      await handle.executeUpdate(abandonUpdate, { args: [{ operator: 'ops' }] });
      await handle.result().catch(() => undefined);
    });
    assert.equal(fake.calls.postInvoiceToLedger, 1, 'the late decision changed nothing');
  });

  test('when a decision arrives after the job finished, then the server refuses it as a closed workflow', async () => {
    const fake = fakeActivities();
    await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await handle.result();
      const error = await handle
        .executeUpdate(submitReviewUpdate, { args: [{ decision: 'reject', reason: 'late', reviewer: 'rita' }] })
        .then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof WorkflowNotFoundError, `expected WorkflowNotFoundError, got ${String(error)}`);
      assert.equal(fake.calls.postInvoiceToLedger, 1);
    });
  });

  test('when the reviewed signal carries valid fields, then they are posted', async () => {
    const fake = fakeActivities({ extractions: [validExtraction(sampleInvoice, 0.4)] });
    const state = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'awaiting_review');
      await handle.signal('reviewed', { fields: sampleInvoice, reviewer: 'sam' });
      const result = await handle.result();
      // The verdict on the fields is in history (a local activity's marker, behind its patch marker), so replay
      // reads it back instead of judging the fields again by whatever the schema says by then. (The first patch
      // marker is the job's step priorities, recorded at its start; the second, search attributes written on a change
      // of status only, at its first change of step.)
      const markers = (await handle.fetchHistory()).events?.flatMap((event) => event.markerRecordedEventAttributes?.markerName ?? []);
      assert.deepEqual(markers, ['core_patch', 'core_patch', 'core_patch', 'core_local_activity']);
      return result;
    });
    assert.equal(state.status, 'posted');
    assert.deepEqual(fake.posted, [sampleInvoice]);
  });

  test('when the reviewed signal carries fields that break the schema, then it is ignored and the job keeps waiting', async () => {
    const fake = fakeActivities({ extractions: [validExtraction(sampleInvoice, 0.4)] });
    const edited = { ...sampleInvoice, totalAmount: 99 };
    const state = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'awaiting_review');
      await handle.signal('reviewed', { fields: { ...sampleInvoice, totalAmount: 'lots' }, reviewer: 'sam' });
      // A query after the signal sees its effect: signals and queries are handled in order on one workflow task.
      const still = await handle.query(statusQuery);
      assert.equal(still.status, 'awaiting_review');
      assert.equal(fake.calls.postInvoiceToLedger, 0);
      await handle.signal('reviewed', { fields: edited, reviewer: 'sam' });
      return handle.result();
    });
    assert.equal(state.status, 'posted');
    assert.deepEqual(fake.posted, [edited], 'only the valid decision counted');
  });

  test('when the rejected signal arrives, then the job ends rejected with the reason and posts nothing', async () => {
    const fake = fakeActivities({ extractions: [validExtraction(sampleInvoice, 0.4)] });
    const state = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'awaiting_review');
      await handle.signal('rejected', { reason: 'not ours', reviewer: 'sam' });
      return handle.result();
    });
    assert.equal(state.status, 'rejected');
    assert.equal(state.review?.decision, 'rejected');
    assert.equal(state.review?.reason, 'not ours');
    assert.equal(fake.calls.postInvoiceToLedger, 0);
  });

  test('when the model output never matches the schema, then the job goes to review with the raw output', async () => {
    const invalid = {
      outcome: 'schema_invalid' as const,
      rawOutput: '{"invoice":{"totalAmount":"12,50"}}',
      errors: ['/invoice/totalAmount must be number,null'],
      usage: { inputTokens: 10, outputTokens: 5, costUsd: 0, calls: 1 },
      attempt: 1,
    };
    const fake = fakeActivities({ extractions: [invalid, invalid, invalid] });
    await harness.withWorker(fake.activities, async (start) => {
      const handle = await start({ maxExtractionTries: 3 });
      await waitForStatus(handle, 'awaiting_review');
      const state = await handle.query(statusQuery);
      assert.equal(fake.calls.extractInvoiceFields, 3);
      assert.equal(state.rawModelOutput, invalid.rawOutput);
      assert.deepEqual(state.validationErrors, invalid.errors);
      await handle.signal('rejected', { reason: 'unreadable', reviewer: 'rita' });
      await handle.result();
    });
    assert.equal(fake.calls.postInvoiceToLedger, 0);
  });

  test('when the document is not an invoice, then the job ends rejected after classification', async () => {
    const fake = fakeActivities({ documentType: 'other' });
    const state = await harness.withWorker(fake.activities, async (start) => (await start()).result());
    assert.equal(state.status, 'rejected');
    assert.equal(state.error?.type, 'NotAnInvoice');
    assert.equal(fake.calls.extractInvoiceFields, 0);
  });

  test('when a step fails permanently, then the job parks as a dead letter at once, and abandon fails it with the reason', async () => {
    const fake = fakeActivities({ classifyDocument: [new ContentRefusedError('the model declined to read it')] });
    const error = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'dead_letter');
      const parked = await handle.query(statusQuery);
      assert.equal(parked.error?.type, 'ContentRefusedError');
      assert.equal(parked.error?.step, 'classifyDocument');
      assert.equal(parked.error?.retryable, false);
      assert.equal(parked.error?.attempts, 1, 'a non-retryable failure is not retried');
      assert.ok(parked.deadLetter?.expiresAt);
      await handle.executeUpdate(abandonUpdate, { args: [{ operator: 'ops', reason: 'customer sent a new copy' }] });
      return handle.result().then(() => undefined, (e: unknown) => e);
    });
    assert.ok(error instanceof WorkflowFailedError);
    assert.ok(error.cause instanceof ApplicationFailure);
    assert.equal(error.cause.type, 'ContentRefusedError');
    assert.match(error.cause.message, /declined/);
    const [state] = error.cause.details as [JobState];
    assert.equal(state.status, 'failed');
    assert.equal(state.error?.step, 'classifyDocument');
    assert.equal(fake.calls.classifyDocument, 1);
  });

  test.each([
    ['InvalidDocumentError', new InvalidDocumentError('the PDF is encrypted'), /encrypted/],
    ['DocumentTooLargeError', new DocumentTooLargeError('the document has 300 pages; the limit is 100'), /300 pages/],
  ])('when a step finds the input unprocessable (%s), then the job fails for its client with the reason, never parked', async (type, thrown, reason) => {
    const fake = fakeActivities({ extractText: [thrown] });
    const error = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      return handle.result().then(() => undefined, (e: unknown) => e);
    });
    assert.ok(error instanceof WorkflowFailedError);
    assert.ok(error.cause instanceof ApplicationFailure);
    assert.equal(error.cause.type, type);
    const [state] = error.cause.details as [JobState];
    assert.equal(state.status, 'failed');
    assert.equal(state.error?.type, type);
    assert.equal(state.error?.step, 'extractText');
    assert.match(state.error?.message ?? '', reason);
    assert.equal(state.deadLetter, undefined, 'no dead letter for an operator');
    assert.equal(fake.calls.extractText, 1);
    assert.equal(fake.calls.classifyDocument, 0);
  });

  test('when an operator retries a dead letter, then only the failed step runs again and the job posts once', async () => {
    const fake = fakeActivities({ ledgerFailures: [new LedgerRejectedError('ledger answered 422')] });
    const state = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'dead_letter');
      const refused = await handle
        .executeUpdate(submitReviewUpdate, { args: [{ decision: 'reject', reason: 'x', reviewer: 'r' }] })
        .then(() => undefined, (e: unknown) => e);
      assert.ok(refused instanceof WorkflowUpdateFailedError, 'a dead letter is not awaiting review');
      const outcome = await handle.executeUpdate(retryUpdate, { args: [{ operator: 'ops' }] });
      assert.equal(outcome.step, 'postInvoiceToLedger');
      return handle.result();
    });
    assert.equal(state.status, 'posted');
    assert.equal(state.deadLetter?.retries, 1);
    assert.equal(fake.calls.extractText, 1);
    assert.equal(fake.calls.extractInvoiceFields, 1);
    assert.equal(fake.calls.postInvoiceToLedger, 2);
    assert.equal(fake.posted.length, 1);
    assert.deepEqual(
      state.events.map((event) => event.status),
      ['processing', 'processing', 'processing', 'processing', 'dead_letter', 'processing', 'posted'],
    );
  });

  test('when a job has a callback URL, then a signed-webhook delivery starts at review and at the end', async () => {
    const fake = fakeActivities({ extractions: [validExtraction(sampleInvoice, 0.5)] });
    const state = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start({ callbackUrl: 'http://127.0.0.1:9/hook' });
      await waitForStatus(handle, 'awaiting_review');
      await handle.signal('reviewed', { fields: sampleInvoice, reviewer: 'sam' });
      const done = await handle.result();
      for (let i = 0; i < 50 && fake.webhooks.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      return done;
    });
    assert.equal(state.status, 'posted');
    assert.deepEqual(
      fake.webhooks.map((hook) => [hook.event.type, hook.event.data.status]),
      [
        ['job.awaiting_review', 'awaiting_review'],
        ['job.posted', 'posted'],
      ],
    );
    assert.equal(new Set(fake.webhooks.map((hook) => hook.event.id)).size, 2, 'each event has its own id');
    assert.equal(fake.webhooks[1]?.event.data.ledgerEntryId, 'led_1');
  });

  test('when the provider answers 429 with retry-after, then the next attempt is scheduled after that delay', async () => {
    const fake = fakeActivities({ classifyDocument: [new ModelRateLimitedError('429', { retryAfterMs: 7_000 })] });
    const state = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      let pending;
      for (let i = 0; i < 100 && !pending; i++) {
        const description = await handle.describe();
        pending = description.raw.pendingActivities?.find((activity) => (activity.attempt ?? 0) >= 2);
        if (!pending) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(pending, 'the rate-limited activity should be pending a second attempt');
      const delayMs = toMs(pending.nextAttemptScheduleTime) - toMs(pending.lastAttemptCompleteTime);
      assert.equal(Math.round(delayMs / 1000), 7, "the retry waits the provider's retry-after, not the policy interval");
      assert.equal(pending.lastFailure?.applicationFailureInfo?.type, 'ModelRateLimitedError');
      return handle.result();
    });
    assert.equal(state.status, 'posted');
    assert.equal(state.attempts.classifyDocument, 2);
    assert.equal(fake.calls.classifyDocument, 2);
  });

  test('when the token budget refuses every attempt of a step, then the step is scheduled again instead of parking', async () => {
    const maxAttempts = modelCallOptions.retry?.maximumAttempts ?? 0;
    assert.ok(maxAttempts > 1);
    const refusals = Array.from(
      { length: maxAttempts + 1 },
      () => new TokenBudgetExhaustedError('the bulk share cannot cover this call yet', { retryAfterMs: 20 }),
    );
    const fake = fakeActivities({ classifyDocument: refusals });
    const state = await harness.withWorker(fake.activities, async (start) => (await start()).result());
    assert.equal(state.status, 'posted');
    assert.equal(fake.calls.classifyDocument, maxAttempts + 2, 'one full round of attempts, then a fresh activity');
    assert.equal(state.attempts.classifyDocument, 2, 'the second activity succeeded on its second attempt');
    assert.ok(!state.events.some((event) => event.status === 'dead_letter'), 'a busy budget is not a dead letter');
    assert.equal(fake.posted.length, 1);
  });

  test('when Redis is away for more than a round of attempts, then the model step is scheduled again instead of parked, and posts once Redis answers', async () => {
    const maxAttempts = modelCallOptions.retry?.maximumAttempts ?? 0;
    assert.ok(maxAttempts > 1);
    // Redis away for two full rounds of attempts and one more try: more than any one activity may spend.
    const outage = Array.from(
      { length: 2 * maxAttempts + 1 },
      () => new BudgetUnavailableError('the token budget cannot be reached (Connection is closed.)', { retryAfterMs: 20 }),
    );
    const fake = fakeActivities({ classifyDocument: outage });
    const state = await harness.withWorker(fake.activities, async (start) => (await start()).result());
    assert.equal(state.status, 'posted');
    assert.equal(fake.calls.classifyDocument, 2 * maxAttempts + 2, 'two full rounds, then a third activity');
    assert.equal(state.attempts.classifyDocument, 2, 'the third activity succeeded on its second attempt');
    assert.ok(!state.events.some((event) => event.status === 'dead_letter'), 'an outage of the budget is not a dead letter');
    assert.equal(fake.posted.length, 1);
  });

  test('when Redis was away for all but the last attempt and the provider then fails it, then the step gets fresh attempts instead of parking', async () => {
    const maxAttempts = modelCallOptions.retry?.maximumAttempts ?? 0;
    assert.ok(maxAttempts > 1);
    // Only the last attempt reached the provider: a step with one real try must not park for a fault a retry can help.
    const failures: Error[] = [
      ...Array.from({ length: maxAttempts - 1 }, () => new BudgetUnavailableError('the token budget cannot be reached', { retryAfterMs: 20 })),
      new ModelUnavailableError('the provider answered 529', { retryAfterMs: 20 }),
    ];
    const fake = fakeActivities({ classifyDocument: failures });
    const state = await harness.withWorker(fake.activities, async (start) => (await start()).result());
    assert.equal(state.status, 'posted');
    assert.equal(fake.calls.classifyDocument, maxAttempts + 1, 'a fresh activity after the round the outage took');
    assert.equal(state.attempts.classifyDocument, 1);
    assert.ok(!state.events.some((event) => event.status === 'dead_letter'), 'the outage’s attempts led to no dead letter');
  });

  test('when a worker of the release before the type rename refuses for the budget, then its old type still reschedules the step', async () => {
    const maxAttempts = modelCallOptions.retry?.maximumAttempts ?? 0;
    const refusals = Array.from({ length: maxAttempts }, () =>
      ApplicationFailure.create({ type: 'TokenBudgetExhausted', message: 'the bulk share cannot cover this call yet', nextRetryDelay: 20 }),
    );
    const fake = fakeActivities({ classifyDocument: refusals });
    const state = await harness.withWorker(fake.activities, async (start) => (await start()).result());
    assert.equal(state.status, 'posted');
    assert.equal(fake.calls.classifyDocument, maxAttempts + 1, 'a fresh activity after the refused round');
    assert.ok(!state.events.some((event) => event.status === 'dead_letter'), 'a busy budget is not a dead letter');
  });

  test('when a billed model call fails its step for good, then the job still counts its tokens and cost', async () => {
    const billedUsage = { inputTokens: 700, outputTokens: 30, costUsd: 0.0025, calls: 1 };
    const fake = fakeActivities({ extractions: [new ContentRefusedError('the model declined', { details: { billedUsage } })] });
    const state = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'dead_letter');
      const parked = await handle.query(statusQuery);
      await handle.executeUpdate(abandonUpdate, { args: [{ operator: 'ops', reason: 'test done' }] });
      return parked;
    });
    assert.equal(state.error?.type, 'ContentRefusedError');
    // The refused extraction beside the one successful classification (1000 in, 200 out, one call).
    assert.deepEqual(
      { inputTokens: state.usage.inputTokens, outputTokens: state.usage.outputTokens, calls: state.usage.calls },
      { inputTokens: 1000 + 700, outputTokens: 200 + 30, calls: 2 },
    );
    assert.ok(Math.abs(state.usage.costUsd - (0.006 + 0.0025)) < 1e-12, String(state.usage.costUsd));
  });
});

function toMs(timestamp: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  return Number(timestamp?.seconds ?? 0) * 1000 + Math.round((timestamp?.nanos ?? 0) / 1e6);
}
