import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { closedLoop, type LoadRun } from './load';

/**
 * The ceiling on the same server: bare workflows of `activities` no-op activities each, run by one worker on its own
 * task queue with the SDK's default slots. The worker stays up for the whole run, so bare rounds can alternate with
 * the product's (index.ts) and both sides see the same machine.
 */
export interface BareCeiling {
  /** Starts `count` bare workflows from `submitters` closed-loop callers; the ids to wait for. */
  flood(count: number, submitters: number, round: string): Promise<LoadRun>;
  /** Its client, without the product's payload codec: the bare workflows' results are plaintext, which the codec refuses. */
  client: Client;
  close(): Promise<void>;
}

export async function startBareCeiling(stackClient: Client, address: string, activities: number): Promise<BareCeiling> {
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
  return {
    client,
    flood: (count, submitters, round) =>
      closedLoop(count, submitters, async (index) => {
        const startedAt = performance.now();
        const handle = await client.workflow.start('bareWorkflow', {
          workflowId: `${taskQueue}-${round}-${index}`,
          taskQueue,
          args: [{ activities }],
        });
        return { id: handle.workflowId, acceptMs: performance.now() - startedAt };
      }),
    async close() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
