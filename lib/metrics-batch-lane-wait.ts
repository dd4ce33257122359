import type { Client } from '@temporalio/client';
import { Gauge, type Registry } from 'prom-client';
import { laneWaitQuery } from '../common/batch-lane';
import { METRIC_PREFIX } from './metrics';

/** The lane workflows that hold entries not yet in a submitted batch: a model's collector, and its batches until submitted. */
const LANE_WORKFLOWS = ['batchCollectorWorkflow', 'messageBatchWorkflow'] as const;
/** Batches are few (each holds up to BATCH_MAX_REQUESTS entries); past this many, the rest are not asked. */
const MAX_ASKED = 200;

export interface LaneWaitReading {
  model: string;
  /** From the workflow's laneWaitQuery; absent when nothing waits in it. */
  oldestWaitingSince?: number;
}

/** The model in a lane workflow id: `batch-collector:<model>` or `message-batch:<model>:<batchKey>`. */
export function modelOfLaneWorkflow(workflowId: string): string | undefined {
  const collector = /^batch-collector:(.+)$/.exec(workflowId);
  if (collector) return collector[1];
  return /^message-batch:(.+):[^:]+$/.exec(workflowId)?.[1];
}

/**
 * Per model, the age in seconds of the oldest entry enqueued and not yet in a submitted batch; 0 for a model whose
 * lane workflows hold none, so the series is there whenever the lane runs.
 */
export function oldestWaitingAges(readings: readonly LaneWaitReading[], now: number): Map<string, number> {
  const ages = new Map<string, number>();
  for (const { model, oldestWaitingSince } of readings) {
    const age = oldestWaitingSince === undefined ? 0 : Math.max(0, (now - oldestWaitingSince) / 1000);
    ages.set(model, Math.max(ages.get(model) ?? 0, age));
  }
  return ages;
}

/**
 * Asks every running collector and batch workflow what it holds unsubmitted. A workflow that closed between the list
 * and the query is left out.
 */
export async function readLaneWaits(client: Client): Promise<LaneWaitReading[]> {
  const types = LANE_WORKFLOWS.map((type) => `'${type}'`).join(', ');
  const readings: LaneWaitReading[] = [];
  let asked = 0;
  for await (const workflow of client.workflow.list({ query: `WorkflowType IN (${types}) AND ExecutionStatus = 'Running'` })) {
    const model = modelOfLaneWorkflow(workflow.workflowId);
    if (model === undefined) continue;
    if (asked++ >= MAX_ASKED) break;
    const wait = await client.workflow
      .getHandle(workflow.workflowId, workflow.runId)
      .query(laneWaitQuery)
      .catch(() => undefined);
    if (wait) readings.push({ model, ...(wait.oldestWaitingSince !== undefined ? { oldestWaitingSince: wait.oldestWaitingSince } : {}) });
  }
  return readings;
}

/** `slowlane_batch_lane_oldest_waiting_entry_age_seconds`, from `read` at each scrape (the caller caches it). */
export function registerLaneWaitGauge(registry: Registry, read: () => Promise<LaneWaitReading[]>, now: () => number = Date.now): void {
  new Gauge({
    name: `${METRIC_PREFIX}batch_lane_oldest_waiting_entry_age_seconds`,
    help: 'Age of the oldest batch-lane entry enqueued and not yet in a submitted batch (in its collector, or in a batch not yet created at the provider)',
    labelNames: ['model'] as const,
    registers: [registry],
    async collect() {
      const ages = oldestWaitingAges(await read(), now());
      this.reset();
      for (const [model, age] of ages) this.set({ model }, age);
    },
  });
}
