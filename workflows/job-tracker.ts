import { upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import type { JobError, JobStart, JobState, JobStatus, JobStep, Usage } from '../common/job';
import { ErrorTypeKey, JobStatusKey, JobStepKey, StatusSinceKey } from '../common/search-attributes';

/**
 * The job's state as the status query, the search attributes and the event stream see it. Every status change
 * goes through here, so the three never disagree.
 */
export class JobTracker {
  readonly state: JobState;
  /** The error last written to the memo, so the memo is only rewritten when it changes. */
  private memoError: JobError | undefined;

  constructor(input: JobStart) {
    this.state = {
      jobId: input.jobId,
      tenantId: input.tenantId,
      status: 'queued',
      attempts: {},
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0, calls: 0 },
      events: [],
      updatedAt: new Date().toISOString(),
    };
  }

  setStatus(status: JobStatus, step?: JobStep, error?: JobError): void {
    const changed = this.state.status !== status || this.state.step !== step;
    this.state.status = status;
    this.state.step = step;
    this.state.updatedAt = new Date().toISOString();
    upsertSearchAttributes([
      { key: JobStatusKey, value: status },
      { key: JobStepKey, value: step ?? null },
      { key: ErrorTypeKey, value: error?.type ?? null },
      ...(changed ? [{ key: StatusSinceKey, value: new Date(this.state.updatedAt) }] : []),
    ]);
    // The error's message travels in the memo, so a list of dead letters needs no worker to answer a query.
    if (error !== this.memoError) {
      upsertMemo({ error: error ?? undefined });
      this.memoError = error;
    }
    if (changed) {
      this.state.events.push({
        seq: this.state.events.length + 1,
        status,
        ...(step ? { step } : {}),
        at: this.state.updatedAt,
        ...(error ? { error } : {}),
      });
    }
  }

  addUsage(usage: Usage): void {
    const total = this.state.usage;
    this.state.usage = {
      inputTokens: total.inputTokens + usage.inputTokens,
      outputTokens: total.outputTokens + usage.outputTokens,
      costUsd: total.costUsd + usage.costUsd,
      calls: total.calls + usage.calls,
    };
  }
}
