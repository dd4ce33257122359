import { patched, upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import type { JobError, JobProgress, JobStart, JobState, JobStatus, JobStep, Usage } from '../common/job';
import { ErrorTypeKey, JobStatusKey, JobStepKey, StatusSinceKey } from '../common/search-attributes';
import { addUsage } from '../common/usage-sum';
import { PATCHES } from './patches';

/**
 * The job's state as the status query, the search attributes and the event stream see it. Every status change
 * goes through here, so the three never disagree about the status (the search attributes' step may lag: above).
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
    const statusChanged = this.state.status !== status || error?.type !== this.memoError?.type;
    const changed = statusChanged || this.state.step !== step;
    this.state.status = status;
    this.state.step = step;
    this.state.updatedAt = new Date().toISOString();
    // A change of step alone is not written to the search attributes: each upsert is one more visibility write on
    // the server, and a job's steps were most of them (an invoice wrote five, now two). A running job's current step
    // is the status query's; JobStep is the step at the last change of status, what a list of dead letters needs.
    if (statusChanged || !patched(PATCHES.searchAttributesOnStatusChange.id)) this.upsertStatus(status, step, error, changed);
    // The error's message travels in the memo, so a list of dead letters needs no worker to answer a query.
    if (error !== this.memoError) {
      upsertMemo({ error: error ?? undefined });
      this.memoError = error;
    }
    if (changed) {
      this.state.events.push({
        seq: this.nextSeq(),
        status,
        ...(step ? { step } : {}),
        at: this.state.updatedAt,
        ...(error ? { error } : {}),
      });
    }
  }

  private upsertStatus(status: JobStatus, step: JobStep | undefined, error: JobError | undefined, changed: boolean): void {
    upsertSearchAttributes([
      { key: JobStatusKey, value: status },
      { key: JobStepKey, value: step ?? null },
      { key: ErrorTypeKey, value: error?.type ?? null },
      ...(changed ? [{ key: StatusSinceKey, value: new Date(this.state.updatedAt) }] : []),
    ]);
  }

  /**
   * A fan-out's progress, with the usage so far, as one more entry of the event stream (its seq is the next one);
   * in the memo too, so GET /jobs/:id shows it with every worker down. Call it per batch of work, not per item:
   * each call is a memo upsert in history.
   */
  publishProgress(counts: Omit<JobProgress, 'seq' | 'usage'>): void {
    this.state.progress = { seq: this.nextSeq(), ...counts, usage: this.state.usage };
    upsertMemo({ progress: this.state.progress });
  }

  /** Status events and progress share one numbering, so one Last-Event-ID resumes both on the SSE stream. */
  private nextSeq(): number {
    return Math.max(this.state.events.at(-1)?.seq ?? 0, this.state.progress?.seq ?? 0) + 1;
  }

  addUsage(usage: Usage): void {
    this.state.usage = addUsage(this.state.usage, usage);
  }
}
