import type { Client } from '@temporalio/client';
import { batchLaneKeys } from '../../common/batch-lane';
import type { JobTypeDefinition } from '../../common/job-types/job-type';
import { TenantIdKey } from '../../common/search-attributes';
import { objectKeys, type ObjectStore } from '../object-store';
import { jobPushSubscriptionsPrefix } from '../push/push-subscriptions';
import type { ErasureMarks } from './erasure-marks';

/** The part of a job's memo (api/jobs/job-reader.ts JobMemo) that names its upload. */
export interface ContentMemo {
  inputSha256?: string;
}


export interface JobObjects {
  /** Keys that exist and are the job's alone (or its upload's, when no other job or schedule of the tenant reads it). */
  erasable: string[];
  /** Keys of the upload's content (not another job's own) that another job or schedule of the tenant still reads. */
  shared: string[];
}

export interface JobToErase {
  tenantId: string;
  jobId: string;
  definition: JobTypeDefinition | undefined;
  memo: ContentMemo;
  customIds: ReadonlySet<string>;
}

/**
 * Every object the job wrote, found where the product puts them: its type's own prefix, the content-named upload,
 * extracted text and type prefix (a retried or repeated upload reuses them, so they go only with the last job that
 * reads them), and its batch-lane entries by custom id.
 */
export async function jobObjects(deps: { client: Client; store: ObjectStore; marks: ErasureMarks }, job: JobToErase): Promise<JobObjects> {
  const { store } = deps;
  const erasable: string[] = [];
  const shared: string[] = [];
  const ownPrefix = job.definition?.objects?.ownPrefix?.(job.tenantId, job.jobId);
  if (ownPrefix) erasable.push(...(await keysUnder(store, ownPrefix)));
  // Its Web Push subscriptions name its endpoint's devices: the job's data, whatever its type.
  erasable.push(...(await keysUnder(store, jobPushSubscriptionsPrefix(job.tenantId, job.jobId))));

  const sha256 = job.memo.inputSha256;
  if (sha256) {
    const contentPrefixes = [
      objectKeys.input(job.tenantId, sha256),
      objectKeys.text(job.tenantId, sha256),
      ...[job.definition?.objects?.contentPrefix?.(job.tenantId, sha256)].filter((prefix): prefix is string => Boolean(prefix)),
    ];
    const named = `.${encodeURIComponent(job.jobId)}.`;
    const stillRead = await contentStillRead(deps, job.tenantId, sha256, job.jobId);
    for (const prefix of contentPrefixes) {
      for (const key of await keysUnder(store, prefix)) {
        // A key naming another job (its id URL-encoded, so with %3A) is that job's, unless nothing reads the content.
        const othersKey = !key.includes(named) && key.slice(prefix.length).includes('%3A');
        if (key.includes(named) || !stillRead) erasable.push(key);
        else if (!othersKey) shared.push(key);
      }
    }
  }

  // An entry's spend hold stays: a billing record (tenant, random id, USD held, model; nothing of the job's content),
  // kept as the ledger's entry is, so the entry the provider bills after the job is gone is still settled.
  for (const customId of job.customIds) {
    for (const key of [batchLaneKeys.request(customId), batchLaneKeys.answer(customId)]) {
      if (await store.exists(key)) erasable.push(key);
    }
  }
  return { erasable: [...new Set(erasable)], shared };
}

async function keysUnder(store: ObjectStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  return keys;
}

/**
 * Whether another execution of the tenant (a job, a schedule's run) or one of its schedules names the same upload.
 * Visibility lists the tenant's executions with their memo; a job submitted in the last second may not be listed yet.
 */
async function contentStillRead(deps: { client: Client; marks: ErasureMarks }, tenantId: string, sha256: string, jobId: string): Promise<boolean> {
  const { client } = deps;
  const query = `${TenantIdKey.name} = '${tenantId}' AND WorkflowId != '${jobId}'`;
  for await (const info of client.workflow.list({ query })) {
    // An erased job stays listed until the server has deleted it: it reads nothing any more.
    if ((info.memo as ContentMemo | undefined)?.inputSha256 === sha256 && !(await deps.marks.hides(tenantId, info))) return true;
  }
  for await (const summary of client.schedule.list({ query: `${TenantIdKey.name} = '${tenantId}'` })) {
    const description = await client.schedule.getHandle(summary.scheduleId).describe();
    const memo = description.action.type === 'startWorkflow' ? (description.action.memo as ContentMemo | undefined) : undefined;
    if (memo?.inputSha256 === sha256) return true;
  }
  return false;
}
