import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import type { Client } from '@temporalio/client';
import { JobStatusKey, JobStepKey, StatusSinceKey } from '../../common/search-attributes';
import { type BatchReplayOptions, replayJobs } from '../../ops/replay';

/**
 * A stand-in for Temporal, not for the replay: every job is a parked dead letter whose `retry` Update is
 * accepted. Each call lands in the shared log, next to the sleeps the replay asks for, so their order shows.
 */
function parkedDeadLetters(log: string[], options: { failing?: Set<string> } = {}): Client {
  const attributes = new Map<unknown, unknown>([
    [JobStatusKey, 'dead_letter'],
    [JobStepKey, 'extractInvoiceFields'],
    [StatusSinceKey, new Date('2026-12-02T10:00:00.000Z')],
  ]);
  const getHandle = (jobId: string, runId = `run-${jobId}`) => ({
    describe: async () => {
      log.push(`describe ${jobId}`);
      if (options.failing?.has(jobId)) throw new Error('deadline exceeded');
      return {
        type: 'invoiceWorkflow',
        workflowId: jobId,
        runId,
        status: { name: 'RUNNING' },
        typedSearchAttributes: { get: (key: unknown) => attributes.get(key) },
        memo: {},
      };
    },
    executeUpdate: async () => {
      log.push(`retry ${jobId}`);
      return { step: 'extractInvoiceFields' };
    },
  });
  return { workflow: { getHandle } } as unknown as Client;
}

function options(log: string[], overrides: Partial<BatchReplayOptions> = {}): BatchReplayOptions {
  return {
    namespace: 'slowlane',
    operator: 'tester',
    reason: 'replay after a fix',
    ratePerSecond: 2,
    limit: 1_000,
    sleep: async (ms) => {
      log.push(`sleep ${ms}`);
    },
    ...overrides,
  };
}

const JOBS = ['job-1', 'job-2', 'job-3', 'job-4', 'job-5'];

describe('replay pacing (--rate N/s)', () => {
  test('when 5 jobs are replayed at 2/s, then it waits 500 ms between one job and the next, never before the first', async () => {
    const log: string[] = [];
    const { summary } = await replayJobs(parkedDeadLetters(log), JOBS, options(log));
    assert.equal(summary.retried, 5);
    const delays = log.filter((entry) => entry.startsWith('sleep')).map((entry) => Number(entry.split(' ')[1]));
    assert.deepEqual(delays, [500, 500, 500, 500]);
    // Each wait sits between one job's retry and the next job's first look.
    assert.deepEqual(
      log.filter((entry) => !entry.startsWith('describe')),
      [
        'retry job-1',
        'sleep 500',
        'retry job-2',
        'sleep 500',
        'retry job-3',
        'sleep 500',
        'retry job-4',
        'sleep 500',
        'retry job-5',
      ],
    );
    assert.equal(log[0], 'describe job-1');
  });

  test('when the rate changes, then the wait between jobs is one second divided by it', async () => {
    for (const ratePerSecond of [0.5, 4, 10]) {
      const log: string[] = [];
      await replayJobs(parkedDeadLetters(log), JOBS.slice(0, 3), options(log, { ratePerSecond }));
      const delays = log.filter((entry) => entry.startsWith('sleep')).map((entry) => Number(entry.split(' ')[1]));
      assert.deepEqual(delays, [1000 / ratePerSecond, 1000 / ratePerSecond], `at ${ratePerSecond}/s`);
    }
  });

  test('when a job fails along the way, then the batch goes on and the next job still waits its turn', async () => {
    const log: string[] = [];
    const { outcomes } = await replayJobs(parkedDeadLetters(log, { failing: new Set(['job-2']) }), JOBS, options(log));
    assert.deepEqual(
      outcomes.map((outcome) => outcome.action),
      ['retried', 'failed', 'retried', 'retried', 'retried'],
    );
    assert.equal(log.filter((entry) => entry === 'sleep 500').length, 4);
    assert.deepEqual(log.slice(log.indexOf('describe job-2'), log.indexOf('describe job-3') + 1), [
      'describe job-2',
      'sleep 500',
      'describe job-3',
    ]);
  });

  test('when the limit stops the batch, then it does not wait for a job it will not replay', async () => {
    const log: string[] = [];
    const { outcomes } = await replayJobs(parkedDeadLetters(log), JOBS, options(log, { limit: 2 }));
    assert.equal(outcomes.length, 2);
    assert.deepEqual(
      log.filter((entry) => entry.startsWith('sleep')),
      ['sleep 500'],
    );
  });

  test('when it is a dry run, then nothing changes and it does not wait between jobs', async () => {
    const log: string[] = [];
    const { summary } = await replayJobs(parkedDeadLetters(log), JOBS, options(log, { dryRun: true }));
    assert.equal(summary.would_retry, 5);
    assert.deepEqual(
      log,
      JOBS.map((jobId) => `describe ${jobId}`),
    );
  });
});
