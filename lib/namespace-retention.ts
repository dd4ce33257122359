import type { Client } from '@temporalio/client';
import { optionalTsToMs } from '@temporalio/common/lib/time';

/** The namespace's retention: how long the server keeps a closed run (its history, its visibility row) at most. */
export async function namespaceRetentionMs(client: Client, namespace = client.options.namespace): Promise<number> {
  const described = await client.workflowService.describeNamespace({ namespace });
  const retention = optionalTsToMs(described.config?.workflowExecutionRetentionTtl);
  if (retention === undefined) throw new Error(`namespace ${namespace} reports no retention`);
  return retention;
}
