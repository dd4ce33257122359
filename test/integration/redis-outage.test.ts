import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { currentAttemptOf } from '../../api/current-attempt';
import type { CurrentAttempt } from '../../common/api-contract/job-parts';
import type { JobState } from '../../common/job';
import { statusQuery, submitReviewUpdate } from '../../common/messages';
import { startLocalRedis, type LocalRedis } from '../../local/stack/redis-server';
import { cleanTextInvoice, FaultHarness } from '../support/fault-harness';
import { isInvoiceResult } from '../../common/job-types/invoice/result';
import { sampleWith } from '../support/samples';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Handle = Awaited<ReturnType<FaultHarness['startJob']>>;

const REVIEWED_FIELDS = {
  invoiceNumber: 'OUTAGE-7',
  issuer: 'Reviewed Supplier BV',
  issueDate: '2026-11-30',
  dueDate: null,
  currency: 'EUR',
  totalAmount: 1234.56,
  subtotalAmount: null,
  taxAmount: null,
  lineItems: [],
};

/**
 * The real worker process with its token budget and spend totals in a Redis that is SIGKILLed while jobs run, then
 * restarted on the same port: model steps wait (typed, visible), the steps that need no budget go on, and when
 * Redis is back every job finishes, the worker never restarted and no job parked as a dead letter.
 */
describe('a Redis outage parks nothing, on the real stack', () => {
  let harness: FaultHarness;
  let redis: LocalRedis;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    redis = await startLocalRedis();
    harness = await FaultHarness.create();
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await harness?.close();
    await redis?.stop();
  });

  /** Polls the job's status query until `done` holds, or gives up after two minutes. */
  async function stateWhen(handle: Handle, done: (state: JobState) => boolean): Promise<JobState | undefined> {
    let state: JobState | undefined;
    for (let i = 0; i < 1200 && !(state && done(state)); i++) {
      state = await handle.query(statusQuery).catch(() => undefined);
      if (!(state && done(state))) await pause(100);
    }
    return state;
  }

  /** The job's step in flight as GET /jobs/:id shows it, once `done` holds; two minutes at most. */
  async function attemptWhen(handle: Handle, done: (attempt: CurrentAttempt) => boolean): Promise<CurrentAttempt | undefined> {
    let attempt: CurrentAttempt | undefined;
    for (let i = 0; i < 1200 && !(attempt && done(attempt)); i++) {
      attempt = currentAttemptOf(await handle.describe());
      if (!(attempt && done(attempt))) await pause(100);
    }
    return attempt;
  }

  test('when Redis is killed while jobs run, then a model step waits with BudgetUnavailableError, a ledger post and its webhook still go out, and after Redis returns every job posts without a dead letter', async () => {
    const worker = await harness.startWorker({
      REDIS_URL: redis.url,
      // Two slots: a poller holds a slot it reserved before the outage, so only more activities than slots show
      // that slots are still handed out while the budget cannot be read.
      WORKER_MAX_CONCURRENT_ACTIVITIES: '2',
      GATEWAY_REDIS_PREFIX: `outage-${randomUUID().slice(0, 8)}`,
      SPEND_REDIS_PREFIX: `outage-spend-${randomUUID().slice(0, 8)}`,
    });
    const workerPid = worker.child.pid;
    // A job in review has made its model calls: what it has left (the ledger post, webhooks) needs no budget.
    const ambiguous = await sampleWith('awaiting_review');
    const reviewed = await harness.startJob(ambiguous.bytes, ambiguous.fileName, { callbackUrl: receiver.url });
    const inReview = await stateWhen(reviewed, (state) => state.status === 'awaiting_review' || state.status === 'dead_letter');
    assert.equal(inReview?.status, 'awaiting_review', JSON.stringify(inReview?.error));

    await redis.kill();
    const waiting = await harness.startJob(cleanTextInvoice(`outage-${randomUUID()}`));

    // (a) The model step waits, and says why, as a client reads it. Its text extraction and three attempts are more
    // activities than the worker has slots: each needed a slot handed out during the outage.
    const attempt = await attemptWhen(waiting, (current) => current.attempt >= 3 && current.lastFailure?.type === 'BudgetUnavailableError');
    assert.equal(attempt?.lastFailure?.type, 'BudgetUnavailableError', JSON.stringify(attempt));
    assert.ok(attempt.attempt >= 3, JSON.stringify(attempt));
    assert.equal(attempt.step, 'classifyDocument', 'text extraction ran during the outage; the first model call waits');
    const during = await waiting.query(statusQuery);
    assert.equal(during.status, 'processing');
    assert.equal(during.step, 'classifyDocument');

    // (b) Still during the outage: the review's decision leads to a ledger post and a webhook, neither needing Redis.
    await reviewed.executeUpdate(submitReviewUpdate, { args: [{ decision: 'approve', fields: REVIEWED_FIELDS, reviewer: 'rita' }] });
    const posted = await reviewed.result();
    assert.equal(posted.status, 'posted');
    assert.ok(isInvoiceResult(posted.result) && posted.result.ledgerEntryId, 'the ledger took the entry');
    await receiver.waitFor((deliveries) => deliveries.some((delivery) => delivery.status < 300 && delivery.body.includes('"job.posted"')), 60_000);
    const stillWaiting = await waiting.query(statusQuery);
    assert.equal(stillWaiting.status, 'processing', 'the model step could not have run: Redis is still down');

    // (c) Redis returns on the same port; the worker's clients reconnect by themselves.
    await redis.restart();
    const finished = await waiting.result();
    assert.equal(finished.status, 'posted');
    assert.equal(worker.child.pid, workerPid, 'the same worker process served the whole outage');

    // (d) Nothing parked.
    for (const state of [posted, finished]) {
      assert.ok(!state.events.some((event) => event.status === 'dead_letter'), `${state.jobId}: ${state.events.map((event) => event.status).join(', ')}`);
    }
  });
});
