import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { closedLoop } from './load';
import { waitSettled } from './settle';

export interface BareRun {
  settledPerSec: number;
  failed: number;
}

/**
 * The ceiling on the same server: `count` bare workflows of `activities` no-op activities each, started by
 * `submitters` closed-loop callers, run by one worker on its own task queue with the SDK's default slots.
 */
export async function measureBareCeiling(
  stackClient: Client,
  address: string,
  options: { count: number; submitters: number; activities: number; deadlineMs: number },
): Promise<BareRun> {
  // Bare Temporal: no payload codec, where Slowlane's own client and workers encrypt every payload.
  const client = new Client({ connection: stackClient.connection, namespace: stackClient.options.namespace });
  const taskQueue = `bench-bare-${randomUUID().slice(0, 8)}`;
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace: client.options.namespace,
    taskQueue,
    workflowsPath: join(__dirname, 'bare-workflow.ts'),
    activities: { noop: async () => undefined },
  });
  const running = worker.run();
  try {
    const load = await closedLoop(options.count, options.submitters, async (index) => {
      const startedAt = performance.now();
      const handle = await client.workflow.start('bareWorkflow', {
        workflowId: `${taskQueue}-${index}`,
        taskQueue,
        args: [{ activities: options.activities }],
      });
      return { id: handle.workflowId, acceptMs: performance.now() - startedAt };
    });
    const settled = await waitSettled(client, load.ids, options.deadlineMs);
    return { settledPerSec: options.count / ((settled.lastSettledAt - load.startedAt) / 1000), failed: settled.failed };
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
  }
}
