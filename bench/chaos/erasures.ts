import { setTimeout as sleep } from 'node:timers/promises';
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { type Execution, isNotFound, jobFootprint } from '../../lib/erasure/job-executions';
import type { JobMemo } from '../../api/jobs/job-reader';
import { batchLaneKeys } from '../../common/batch-lane';
import { jobTypeNamed } from '../../common/job-types/registry';
import { JobTypeKey } from '../../common/search-attributes';
import { objectKeys, type ObjectStore } from '../../lib/object-store';
import type { SubmittedJob } from './submit';

/** What an erased job had written, read from the server just before its `DELETE`: what must be gone after. */
interface ErasedJob {
  jobId: string;
  executions: Execution[];
  /** Prefixes only this job writes under (its type's own prefix), and the keys of its batch-lane entries. */
  ownPrefixes: string[];
  laneKeys: string[];
  /** Where its upload's content lives; shared with any surviving job of the same content. */
  contentPrefixes: string[];
  attempts: number;
}

export interface ErasureFigures {
  /** Jobs erased while running (`DELETE /jobs/:id` answered 200, or 404 after an earlier attempt that failed). */
  erased: number;
  /** Picked jobs that had closed (or could not be described, the server away) at their turn: left alone, they count among the others. */
  skipped: number;
  /** Erasures answered neither 200 nor, after a failed attempt, 404: each with its status. */
  refused: string[];
  /** Requests that answered 5xx or not at all (Temporal or a worker away) and were sent again. */
  retriedRequests: number;
  /** An erased job's objects still in the bucket at the end. */
  objectsLeft: string[];
  /** An erased job's executions the server or visibility still has at the end. */
  executionsLeft: string[];
  /** Surviving jobs whose upload is no longer in the bucket: an erasure took what was not its own. */
  othersInputsGone: string[];
}

const RETRY_MS = 2_000;
/** An erasure meeting a restarting server is sent again until this long has passed. */
const GIVE_UP_MS = 120_000;
/** The server deletes a closed execution asynchronously; visibility forgets it a moment later. */
const FORGET_WAIT_MS = 30_000;

/**
 * Erases `count` jobs while they run, among the worker and server kills: each turn picks a job still running (seeded),
 * reads what it wrote from the server, and sends `DELETE /jobs/:id` until it is answered. `check` then lists the
 * bucket by the keys the erasure path knows and asks the server for each execution.
 */
export function eraseInFlight(options: {
  client: Client;
  apiUrl: string;
  apiKey: string;
  tenantId: string;
  jobs: () => SubmittedJob[];
  count: number;
  gapMs: [min: number, max: number];
  random: () => number;
  say: (line: string) => void;
}) {
  const erased: ErasedJob[] = [];
  let skipped = 0;
  const refused: string[] = [];
  let retriedRequests = 0;

  const run = (async () => {
    const tried = new Set<string>();
    for (let turn = 0; turn < options.count; turn++) {
      const [min, max] = options.gapMs;
      await sleep(min + options.random() * (max - min));
      // A few draws per turn: quick jobs (an order scored at once) may have closed already.
      let job: SubmittedJob | undefined;
      let before: Omit<ErasedJob, 'attempts'> | undefined;
      for (let draw = 0; draw < 5 && !before; draw++) {
        const candidates = options.jobs().filter((candidate) => !tried.has(candidate.jobId));
        job = candidates[Math.floor(options.random() * candidates.length)];
        if (!job) break;
        tried.add(job.jobId);
        before = await footprintOf(options.client, options.tenantId, job.jobId).catch(() => undefined);
        if (!before) skipped++;
      }
      if (!job || !before) continue;
      const attempts = await erase(options.apiUrl, options.apiKey, job.jobId);
      retriedRequests += attempts.failed;
      if (attempts.status === 'erased') {
        erased.push({ ...before, attempts: attempts.failed + 1 });
        options.say(`erased ${job.jobId} in flight (${attempts.failed + 1} request(s))`);
      } else {
        refused.push(`${job.jobId}: ${attempts.status}`);
        options.say(`erasure of ${job.jobId}: ${attempts.status}`);
      }
    }
  })();

  return {
    /** The ids erased so far: the rest of the bench leaves them out of its counts. */
    erasedIds: () => new Set(erased.map((job) => job.jobId)),
    done: () => run,
    async check(store: ObjectStore, survivors: SubmittedJob[]): Promise<ErasureFigures> {
      await run;
      const keys = new Set<string>();
      for await (const key of store.list('')) keys.add(key);
      const survivingShas = new Set<string>();
      const othersInputsGone: string[] = [];
      for (const job of survivors) {
        const sha = await memoOf(options.client, job.jobId).then((memo) => memo?.inputSha256).catch(() => undefined);
        if (!sha) continue;
        survivingShas.add(sha);
        // A JSON job's input travels in its workflow input; only an upload is in the bucket.
        if (jobTypeNamed(job.kind.type)?.input.kind !== 'file') continue;
        const input = objectKeys.input(options.tenantId, sha);
        if (![...keys].some((key) => key.startsWith(input))) othersInputsGone.push(job.jobId);
      }
      const objectsLeft = erased.flatMap((job) => objectsOf(job, keys, survivingShas));
      const executionsLeft: string[] = [];
      for (const job of erased) {
        for (const execution of job.executions) {
          if (!(await forgotten(options.client, execution))) executionsLeft.push(`${execution.workflowId} ${execution.runId}`);
        }
      }
      return { erased: erased.length, skipped, refused, retriedRequests, objectsLeft, executionsLeft, othersInputsGone };
    },
  };
}

/** Undefined when the job is no longer running: erasing a settled job proves nothing about one in flight. */
async function footprintOf(client: Client, tenantId: string, jobId: string): Promise<Omit<ErasedJob, 'attempts'> | undefined> {
  const description = await client.workflow.getHandle(jobId).describe();
  if (description.status.name !== 'RUNNING') return undefined;
  const memo = (description.memo ?? {}) as JobMemo;
  const type = description.typedSearchAttributes.get(JobTypeKey);
  const definition = type === undefined ? undefined : jobTypeNamed(type);
  const footprint = await jobFootprint(client, { workflowId: jobId, runId: description.runId });
  const sha = memo.inputSha256;
  return {
    jobId,
    executions: footprint.executions,
    ownPrefixes: [definition?.objects?.ownPrefix?.(tenantId, jobId)].filter((prefix): prefix is string => Boolean(prefix)),
    // Not its entries' spend holds: billing records that erasure keeps (lib/erasure/job-objects.ts).
    laneKeys: [...footprint.customIds].flatMap((id) => [batchLaneKeys.request(id), batchLaneKeys.answer(id)]),
    contentPrefixes: sha
      ? [objectKeys.input(tenantId, sha), objectKeys.text(tenantId, sha), definition?.objects?.contentPrefix?.(tenantId, sha)].filter(
          (prefix): prefix is string => Boolean(prefix),
        )
      : [],
  };
}

/**
 * The job's keys still in the bucket: under its own prefix, its lane entries, keys of its content naming it, and its
 * content itself when no surviving job reads the same upload (then the erasure must have taken it too).
 */
function objectsOf(job: ErasedJob, keys: Set<string>, survivingShas: Set<string>): string[] {
  const named = `.${encodeURIComponent(job.jobId)}.`;
  return [...keys].filter((key) => {
    if (job.laneKeys.includes(key) || job.ownPrefixes.some((prefix) => key.startsWith(prefix))) return true;
    const content = job.contentPrefixes.find((prefix) => key.startsWith(prefix));
    if (content === undefined) return false;
    const shared = [...survivingShas].some((sha) => content.includes(sha));
    return key.includes(named) || !shared;
  });
}

/** Sends the erasure until it is answered: 5xx and no answer (server restarting) are sent again, as the docs ask. */
async function erase(apiUrl: string, apiKey: string, jobId: string): Promise<{ status: string; failed: number }> {
  const until = Date.now() + GIVE_UP_MS;
  let failed = 0;
  while (Date.now() < until) {
    const response = await fetch(`${apiUrl}/jobs/${encodeURIComponent(jobId)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${apiKey}` },
      signal: AbortSignal.timeout(30_000),
    }).catch(() => undefined);
    await response?.body?.cancel();
    if (response?.status === 200) return { status: 'erased', failed };
    // A 404 after an attempt that failed part-way: that attempt had already made the job unknown.
    if (response?.status === 404 && failed > 0) return { status: 'erased', failed };
    if (response && response.status < 500) return { status: `answered ${response.status}`, failed };
    failed++;
    await sleep(RETRY_MS);
  }
  return { status: `not answered in ${GIVE_UP_MS / 1000} s`, failed };
}

async function memoOf(client: Client, jobId: string): Promise<JobMemo | undefined> {
  return (await client.workflow.getHandle(jobId).describe()).memo as JobMemo | undefined;
}

/** Gone from the server and from visibility, given the moment the server takes to delete a closed execution. */
async function forgotten(client: Client, { workflowId, runId }: Execution): Promise<boolean> {
  const until = Date.now() + FORGET_WAIT_MS;
  for (;;) {
    let described = true;
    try {
      await client.workflow.getHandle(workflowId, runId).describe();
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError || isNotFound(error))) throw error;
      described = false;
    }
    const listed = described ? 1 : (await client.workflow.count(`WorkflowId = '${workflowId}' AND RunId = '${runId}'`)).count;
    if (!described && listed === 0) return true;
    if (Date.now() > until) return false;
    await sleep(500);
  }
}
