import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { PRIORITIES, taskQueueFor } from '../../common/task-queues';
import type { TemporalDevConfig } from './temporal-dev-config';

const IndexedValueType = temporal.api.enums.v1.IndexedValueType;
const TYPE_BY_NAME: Record<string, temporal.api.enums.v1.IndexedValueType> = {
  Keyword: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  Text: IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
  Int: IndexedValueType.INDEXED_VALUE_TYPE_INT,
  Double: IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
  Bool: IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
  Datetime: IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
  KeywordList: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
};

/** True once the server answers and our namespace exists. */
export async function temporalReady(address: string, namespace: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 1_000 });
  try {
    await connection.workflowService.describeNamespace({ namespace });
    return true;
  } finally {
    await connection.close();
  }
}

/**
 * Makes an existing namespace match temporal-dev.yaml: start-dev applies --search-attribute only when it creates
 * the namespace, so attributes added since are registered here (idempotently), and retention is set.
 */
export async function applyNamespaceSettings(address: string, config: TemporalDevConfig): Promise<string[]> {
  const connection = await Connection.connect({ address });
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace: config.namespace });
    const missing = Object.entries(config.searchAttributes).filter(([name]) => !(name in (existing.customAttributes ?? {})));
    if (missing.length > 0) {
      await connection.operatorService.addSearchAttributes({
        namespace: config.namespace,
        searchAttributes: Object.fromEntries(missing.map(([name, type]) => [name, TYPE_BY_NAME[type] ?? 0])),
      });
    }
    await connection.workflowService.updateNamespace({
      namespace: config.namespace,
      config: { workflowExecutionRetentionTtl: msToTs(config.retentionMs) },
    });
    return missing.map(([name]) => name);
  } finally {
    await connection.close();
  }
}

/** True when a worker with this process id polls any Slowlane task queue (identity is `<pid>@<host>`). */
export async function workerIsPolling(
  address: string,
  namespace: string,
  pid: number | undefined,
  taskQueuePrefix = 'slowlane',
): Promise<boolean> {
  if (pid === undefined) return false;
  const connection = await Connection.connect({ address, connectTimeout: 1_000 });
  try {
    for (const priority of PRIORITIES) {
      const { pollers } = await connection.workflowService.describeTaskQueue({
        namespace,
        taskQueue: { name: taskQueueFor(priority, taskQueuePrefix) },
        taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
      });
      if ((pollers ?? []).some((poller) => poller.identity?.startsWith(`${pid}@`))) return true;
    }
    return false;
  } finally {
    await connection.close();
  }
}
