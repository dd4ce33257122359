import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { Counter, Registry } from 'prom-client';
import { InvalidDocumentError } from '../../common/errors';
import { ActivityMetricsInterceptor, failureKind } from '../../lib/metrics-activity';
import { batchLaneMetricsListener } from '../../lib/metrics-batch-lane';
import { type MetricsServer, startMetricsServer } from '../../lib/metrics-server';
import { cached } from '../../lib/metrics-temporal';
import { createWorkerMetrics } from '../../lib/metrics-worker';

async function valueOf(metric: Counter<string>, labels: Record<string, string>): Promise<number> {
  const { values } = await metric.get();
  return values.find((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want))?.value ?? 0;
}

function activityContext(attempt: number, maximumAttempts: number): Context {
  return {
    info: {
      activityType: 'classifyDocument',
      taskQueue: 'slowlane-interactive',
      attempt,
      retryPolicy: { maximumAttempts, nonRetryableErrorTypes: ['InvalidDocumentError'] },
    },
  } as unknown as Context;
}

describe('cached', () => {
  test('when asked twice within the time to live, then Temporal is read once; after it, again', async () => {
    let clock = 0;
    let reads = 0;
    const read = cached(async () => ++reads, 10_000, () => clock);
    assert.equal(await read(), 1);
    clock = 9_999;
    assert.equal(await read(), 1);
    clock = 10_000;
    assert.equal(await read(), 2);
  });

  test('when a read fails, then the failure is not kept and the next scrape asks again', async () => {
    let reads = 0;
    const read = cached(async () => {
      reads += 1;
      if (reads === 1) throw new Error('temporal down');
      return reads;
    }, 60_000, () => 0);
    await assert.rejects(read(), /temporal down/);
    assert.equal(await read(), 2);
  });

  test('when a slow read fails after a newer one was cached, then the newer one is kept', async () => {
    let clock = 0;
    let reads = 0;
    let failFirst = (_error: Error) => undefined as void;
    const read = cached(
      () => {
        reads += 1;
        return reads === 1 ? new Promise<number>((_resolve, reject) => (failFirst = reject)) : Promise.resolve(reads);
      },
      10_000,
      () => clock,
    );
    const slow = read();
    clock = 10_000;
    assert.equal(await read(), 2);
    failFirst(new Error('timed out'));
    await assert.rejects(slow, /timed out/);
    assert.equal(await read(), 2);
    assert.equal(reads, 2);
  });
});

describe('failureKind', () => {
  test('when failures come from any layer, then their type and retryability are read the way Temporal reads them', () => {
    assert.deepEqual(failureKind(ApplicationFailure.create({ type: 'ModelUnavailableError', message: 'x' })), { type: 'ModelUnavailableError', retryable: true });
    assert.deepEqual(failureKind(ApplicationFailure.create({ type: 'X', message: 'x', nonRetryable: true })), { type: 'X', retryable: false });
    assert.deepEqual(failureKind(ApplicationFailure.create({ type: 'InvalidDocumentError', message: 'x' }), ['InvalidDocumentError']), {
      type: 'InvalidDocumentError',
      retryable: false,
    });
    assert.deepEqual(failureKind(new InvalidDocumentError('encrypted')), { type: 'InvalidDocumentError', retryable: false });
    assert.deepEqual(failureKind(new CancelledFailure('cancelled')), { type: 'Cancelled', retryable: false });
  });
});

describe('ActivityMetricsInterceptor', () => {
  const fail = (error: unknown) => async () => Promise.reject(error);

  test('when a retryable attempt fails with attempts left, then it counts as a retry; on the last attempt it does not', async () => {
    const metrics = createWorkerMetrics(new Registry());
    const failure = ApplicationFailure.create({ type: 'ModelUnavailableError', message: '529' });
    const labels = { activity: 'classifyDocument', error_type: 'ModelUnavailableError' };
    await assert.rejects(new ActivityMetricsInterceptor(metrics, activityContext(1, 6)).execute({ args: [{}], headers: {} }, fail(failure)));
    assert.equal(await valueOf(metrics.retries, labels), 1);
    await assert.rejects(new ActivityMetricsInterceptor(metrics, activityContext(6, 6)).execute({ args: [{}], headers: {} }, fail(failure)));
    assert.equal(await valueOf(metrics.retries, labels), 1, 'no attempt follows the sixth');
    assert.equal(await valueOf(metrics.activityFailures, { ...labels, retryable: 'true' }), 2);
  });

  test('when a non-retryable error fails an attempt, then it is a failure and not a retry', async () => {
    const metrics = createWorkerMetrics(new Registry());
    await assert.rejects(
      new ActivityMetricsInterceptor(metrics, activityContext(1, 6)).execute({ args: [{}], headers: {} }, fail(new InvalidDocumentError('x'))),
    );
    assert.equal(await valueOf(metrics.retries, { error_type: 'InvalidDocumentError' }), 0);
    assert.equal(await valueOf(metrics.activityFailures, { error_type: 'InvalidDocumentError', retryable: 'false' }), 1);
  });

  test('when a model step completes, then its tokens and cost count for its tenant', async () => {
    const metrics = createWorkerMetrics(new Registry());
    const result = { usage: { inputTokens: 1200, outputTokens: 80, costUsd: 0.0042 } };
    const input = { args: [{ tenantId: 'acme', priority: 'bulk', jobId: 'j' }], headers: {} };
    await new ActivityMetricsInterceptor(metrics, activityContext(1, 6)).execute(input, async () => result);
    assert.equal(await valueOf(metrics.tokens, { tenant: 'acme', priority: 'bulk', direction: 'input' }), 1200);
    assert.equal(await valueOf(metrics.tokens, { tenant: 'acme', direction: 'output' }), 80);
    assert.equal(await valueOf(metrics.cost, { tenant: 'acme' }), 0.0042);
    assert.equal(await valueOf(metrics.activityAttempts, { outcome: 'completed' }), 1);
    assert.equal(await valueOf(metrics.cost, { tenant: 'acme', lane: 'live' }), 0.0042, 'cost no lane claims was live');
  });

  test('when a step’s first call took the batch lane and its repair went live, then each lane’s cost counts under its label', async () => {
    const metrics = createWorkerMetrics(new Registry());
    const byLane = { batch: { calls: 1, costUsd: 0.002 }, live: { calls: 1, costUsd: 0.003 } };
    const result = { usage: { inputTokens: 2000, outputTokens: 100, costUsd: 0.005, calls: 2, byLane } };
    const input = { args: [{ tenantId: 'acme', priority: 'bulk', jobId: 'j' }], headers: {} };
    await new ActivityMetricsInterceptor(metrics, activityContext(1, 6)).execute(input, async () => result);
    assert.equal(await valueOf(metrics.cost, { tenant: 'acme', lane: 'batch' }), 0.002);
    assert.equal(await valueOf(metrics.cost, { tenant: 'acme', lane: 'live' }), 0.003);
  });
});

describe('the batch lane metrics', () => {
  test('when entries are enqueued, a batch is submitted and its results read, then each is counted by model or outcome', async () => {
    const registry = new Registry();
    const listen = batchLaneMetricsListener(registry);
    listen({ type: 'enqueued', model: 'claude-haiku-4-5' });
    listen({ type: 'enqueued', model: 'claude-haiku-4-5' });
    listen({ type: 'enqueued', model: 'claude-haiku-4-5' });
    listen({ type: 'submitted', model: 'claude-haiku-4-5', entries: 3, at: Date.UTC(2026, 11, 4, 12) });
    listen({ type: 'results', outcomes: ['succeeded', 'succeeded', 'expired'] });
    const text = await registry.metrics();
    assert.match(text, /slowlane_batch_lane_entries_enqueued_total\{model="claude-haiku-4-5"\} 3/);
    assert.match(text, /slowlane_batch_lane_entries_submitted_total\{model="claude-haiku-4-5"\} 3/);
    assert.match(text, /slowlane_batch_lane_batches_submitted_total\{model="claude-haiku-4-5"\} 1/);
    assert.match(text, /slowlane_batch_lane_entry_results_total\{outcome="succeeded"\} 2/);
    assert.match(text, /slowlane_batch_lane_entry_results_total\{outcome="expired"\} 1/);
    assert.match(text, new RegExp(`slowlane_batch_lane_last_submit_timestamp_seconds\\{model="claude-haiku-4-5"\\} ${Date.UTC(2026, 11, 4, 12) / 1000}`));
  });
});

describe('startMetricsServer', () => {
  let server: MetricsServer;
  let sdkUp = true;
  beforeAll(async () => {
    const registry = new Registry();
    new Counter({ name: 'slowlane_test_total', help: 'a counter', registers: [registry] }).inc(3);
    server = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      registry,
      extraSources: [async () => (sdkUp ? 'temporal_test_total 7\n' : Promise.reject(new Error('sdk exporter down')))],
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  test('when scraped, then our metrics and the extra source come in one answer', async () => {
    const text = await (await fetch(server.url)).text();
    assert.match(text, /^slowlane_test_total 3$/m);
    assert.match(text, /^temporal_test_total 7$/m);
  });

  test('when the extra source fails, then our own metrics are still served', async () => {
    sdkUp = false;
    const response = await fetch(server.url);
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.match(text, /^slowlane_test_total 3$/m);
    assert.match(text, /# source unavailable: .*sdk exporter down/);
  });

  test('when anything but GET /metrics is asked, then it is a 404', async () => {
    assert.equal((await fetch(server.url.replace('/metrics', '/'))).status, 404);
  });
});
