import type { Client } from '@temporalio/client';
import type { JobError, JobStep } from '../common/job';
import { errorWithCurrentStep, stepNamed } from '../common/job-steps';
import { ErrorTypeKey, JobStepKey, PriorityKey, StatusSinceKey, TenantIdKey } from '../common/search-attributes';
import { type DeadLetterFilter, deadLetterQuery } from './dead-letter-query';

export interface DeadLetterView {
  jobId: string;
  runId: string;
  tenantId?: string;
  priority?: string;
  fileName?: string;
  step?: JobStep;
  errorType?: string;
  /** Type, message, step and attempts, as the workflow parked it (kept in its memo). */
  error?: JobError;
  parkedSince?: string;
  parkedSeconds?: number;
  startedAt: string;
}

export interface DeadLetterList {
  /** The visibility query that found them: paste it into the Temporal Web UI or `npm run replay -- --query`. */
  query: string;
  deadLetters: DeadLetterView[];
  /** True when more jobs matched than `limit`. */
  truncated: boolean;
}

/**
 * Parked jobs across tenants with their errors, read from visibility alone (search attributes and memo), so the
 * list answers even while every worker is down. Oldest first; at most `limit`.
 */
export async function listDeadLetters(
  client: Client,
  filter: DeadLetterFilter,
  options: { limit: number; now?: Date },
): Promise<DeadLetterList> {
  const now = options.now ?? new Date();
  const query = deadLetterQuery(filter, now);
  const found: DeadLetterView[] = [];
  let truncated = false;
  for await (const workflow of client.workflow.list({ query, pageSize: Math.min(options.limit + 1, 1000) })) {
    if (found.length === options.limit) {
      truncated = true;
      break;
    }
    const attributes = workflow.typedSearchAttributes;
    const since = attributes.get(StatusSinceKey);
    const memo = (workflow.memo ?? {}) as { fileName?: string; error?: JobError };
    found.push({
      jobId: workflow.workflowId,
      runId: workflow.runId,
      tenantId: attributes.get(TenantIdKey),
      priority: attributes.get(PriorityKey),
      fileName: memo.fileName,
      step: stepNamed(attributes.get(JobStepKey)),
      errorType: attributes.get(ErrorTypeKey),
      error: errorWithCurrentStep(memo.error),
      parkedSince: since?.toISOString(),
      parkedSeconds: since ? Math.max(0, Math.round((now.getTime() - since.getTime()) / 1000)) : undefined,
      startedAt: workflow.startTime.toISOString(),
    });
  }
  found.sort((a, b) => (a.parkedSince ?? a.startedAt).localeCompare(b.parkedSince ?? b.startedAt));
  return { query, deadLetters: found, truncated };
}
