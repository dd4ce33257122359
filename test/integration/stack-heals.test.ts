import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from '@jest/globals';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { taskQueueFor } from '../../common/task-queues';
import { getJob, ledgerEntries, submit } from '../support/api-client';
import { cleanTextInvoice } from '../support/fault-harness';
import { testEnv } from '../support/test-env';
import { alive } from '../support/process-alive';

/** Live worker processes polling the stack's interactive queue, from the server's poller list (`<pid>@<host>`). */
async function interactiveWorkerPids(): Promise<number[]> {
  const { temporalAddress, temporalNamespace } = testEnv();
  assert.ok(temporalAddress, 'this test needs the stack that `npm test` starts');
  const connection = await Connection.connect({ address: temporalAddress });
  try {
    const { pollers } = await connection.workflowService.describeTaskQueue({
      namespace: temporalNamespace,
      taskQueue: { name: taskQueueFor('interactive') },
      taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
    });
    const pids = (pollers ?? []).map((poller) => Number(poller.identity?.split('@')[0]));
    // The server remembers pollers for a while after they die: only live worker processes count.
    return pids.filter(
      (pid) => Number.isInteger(pid) && alive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('workers/main.ts'),
    );
  } finally {
    await connection.close();
  }
}

describe('the local stack heals a crashed worker', () => {
  test('when the interactive worker is SIGKILLed, then the API answers throughout, the worker is restarted and the job posts once', async () => {
    const [doomed] = await interactiveWorkerPids();
    assert.ok(doomed, 'the stack runs a worker on the interactive queue');
    process.kill(doomed, 'SIGKILL');

    const submitted = await submit(Buffer.from(cleanTextInvoice(`heal-${randomUUID()}`)), { fileName: 'invoice.txt' });
    assert.equal(submitted.status, 202, 'the API takes jobs while the worker is down');
    const jobId = submitted.body.jobId as string;

    let status: string | undefined;
    for (let i = 0; i < 600 && status !== 'posted'; i++) {
      const answer = await getJob(jobId);
      assert.equal(answer.status, 200, `GET /jobs/:id answered ${answer.status} while the worker was restarting`);
      status = answer.body.status;
      assert.ok(status !== 'failed' && status !== 'dead_letter', `the job ended ${status}`);
      if (status !== 'posted') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(status, 'posted');
    assert.equal((await ledgerEntries(jobId)).length, 1);
    const restarted = await interactiveWorkerPids();
    assert.ok(restarted.length > 0 && !restarted.includes(doomed), `a new worker process polls (${restarted.join(', ')})`);
  });
});
