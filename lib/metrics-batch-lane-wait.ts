import type { Client } from '@temporalio/client';
import { Gauge, type Registry } from 'prom-client';
import { laneWaitQuery, modelOfLaneWorkflow } from '../common/batch-lane';
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
 * A query needs a worker of the batch-lane queue; with none polling it would wait for one, and hold the API's whole
 * scrape. So every query gets this long, all at once.
 */
const QUERY_DEADLINE_MS = 3_000;

/**
 * Asks every running collector and batch workflow what it holds unsubmitted. One that cannot answer (no batch-lane
 * worker, a busy one) keeps its last answer: entries waiting then wait still, and a stall must not hide itself. A
 * workflow that closed is forgotten.
 */
export function laneWaitReader(client: Client): () => Promise<LaneWaitReading[]> {
  const lastKnown = new Map<string, LaneWaitReading>();
  return async () => {
    const types = LANE_WORKFLOWS.map((type) => `'${type}'`).join(', ');
    const running: Array<{ key: string; workflowId: string; runId: string; model: string }> = [];
    for await (const workflow of client.workflow.list({ query: `WorkflowType IN (${types}) AND ExecutionStatus = 'Running'` })) {
      const model = modelOfLaneWorkflow(workflow.workflowId);
      if (model === undefined) continue;
      running.push({ key: `${workflow.workflowId}/${workflow.runId}`, workflowId: workflow.workflowId, runId: workflow.runId, model });
      if (running.length >= MAX_ASKED) break;
    }
    const deadline = Date.now() + QUERY_DEADLINE_MS;
    const readings = await Promise.all(
      running.map(async ({ key, workflowId, runId, model }) => {
        const wait = await client
          .withDeadline(deadline, () => client.workflow.getHandle(workflowId, runId).query(laneWaitQuery))
          .catch(() => undefined);
        if (wait) lastKnown.set(key, { model, ...(wait.oldestWaitingSince !== undefined ? { oldestWaitingSince: wait.oldestWaitingSince } : {}) });
        return lastKnown.get(key);
      }),
    );
    const stillRunning = new Set(running.map(({ key }) => key));
    for (const key of lastKnown.keys()) if (!stillRunning.has(key)) lastKnown.delete(key);
    return readings.filter((reading): reading is LaneWaitReading => reading !== undefined);
  };
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
