import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { canonicalJson } from '../common/canonical-json';
import { jobTypeNamed } from '../common/job-types/registry';
import { setTimeout as delay } from 'node:timers/promises';
import type { Job } from '../common/api-contract/job';
import { type JobProgress, TERMINAL_STATUSES } from '../common/job';
import { isInvoiceResult } from '../common/job-types/invoice/result';
import type { Priority } from '../common/task-queues';
import { findDocuments, readDocument } from './documents';
import { readStdin } from './json-input';
import { describeProgress, summarize, table, type Terminal } from './progress';
import { ApiCallError, type SlowlaneClient } from './slowlane-client';

export interface SubmitOptions {
  paths: string[];
  /** A registered job type; one that takes JSON reads each path (or stdin for `-`) as one JSON input. */
  type?: string;
  priority: Priority;
  wait: boolean;
  timeoutMs: number;
  callbackUrl?: string;
  /** When the results are due (ISO 8601). */
  deadline?: string;
  json: boolean;
}

export interface JobOutcome {
  file: string;
  jobId?: string;
  status: string;
  replayed?: boolean;
  step?: string;
  ledgerEntryId?: string;
  totalAmount?: number;
  currency?: string;
  /** Another type's result, as one line of JSON. */
  result?: string;
  /** A fan-out's (document's) progress as last seen. */
  progress?: JobProgress;
  reviewDeadline?: string;
  error?: string;
}

/** Uploads at a time: enough to hide latency, few enough not to crowd the API during a backfill. */
const UPLOAD_CONCURRENCY = 4;
const POLL_CONCURRENCY = 8;
const DEFAULT_POLL_MS = 2_000;
/** --wait stops at these: finished, or needing a person (review can take days). */
const SETTLED = new Set<string>([...TERMINAL_STATUSES, 'dead_letter', 'awaiting_review']);
const FAILED = new Set(['failed', 'dead_letter', 'submit_failed']);
/** Up to this many jobs each status change gets a line; a backfill of thousands shows only the running summary. */
const CHATTY_UP_TO = 50;

/** `slowlane submit`: returns the exit code. */
export async function submitCommand(client: SlowlaneClient, options: SubmitOptions, terminal: Terminal): Promise<number> {
  const jobType = jobTypeNamed(options.type ?? 'invoice');
  if (jobType?.input.kind === 'json') return submitJsonCommand(client, { ...options, type: jobType.name }, terminal);
  const paths = await findDocuments(options.paths);
  if (paths.length === 0) {
    terminal.note('No .pdf, .txt, .png or .jpg files found.');
    return 1;
  }
  const outcomes: JobOutcome[] = paths.map((path) => ({ file: path, status: 'pending' }));
  let submitted = 0;
  await forEachLimited(outcomes, UPLOAD_CONCURRENCY, async (outcome) => {
    try {
      const document = await readDocument(outcome.file);
      const answer = await client.submit({
        type: jobType?.name ?? 'invoice',
        bytes: document.bytes,
        fileName: document.fileName,
        idempotencyKey: document.idempotencyKey,
        priority: options.priority,
        ...(options.callbackUrl ? { callbackUrl: options.callbackUrl } : {}),
        ...(options.deadline ? { deadline: options.deadline } : {}),
      });
      Object.assign(outcome, { jobId: answer.jobId, status: answer.status, replayed: answer.replayed });
      if (!options.json) terminal.out(`submitted ${document.fileName} → ${answer.jobId}${answer.replayed ? ' (already known)' : ''}`);
    } catch (error) {
      Object.assign(outcome, { status: 'submit_failed', error: describe(error) });
      terminal.note(`! ${outcome.file}: ${describe(error)}`);
    }
    submitted++;
    terminal.progress(`submitting ${submitted}/${outcomes.length}`);
  });
  terminal.done();

  let timedOut = false;
  if (options.wait) timedOut = !(await waitForJobs(client, outcomes, options.timeoutMs, terminal));

  if (options.json) {
    terminal.out(JSON.stringify(outcomes, null, 2));
  } else {
    terminal.out('');
    const shown = (file: string) => (file.startsWith(process.cwd()) ? relative(process.cwd(), file) : file);
    for (const line of table([['FILE', 'JOB', 'STATUS', 'DETAIL'], ...outcomes.map((o) => [shown(o.file), o.jobId ?? '-', o.status, detailOf(o)])])) terminal.out(line);
    terminal.out(`\n${summarize(outcomes.map((o) => o.status))}`);
  }
  return exitCode(outcomes, timedOut, options, terminal);
}

function exitCode(outcomes: JobOutcome[], timedOut: boolean, options: SubmitOptions, terminal: Terminal): number {
  if (timedOut) {
    terminal.note(`Stopped waiting after ${Math.round(options.timeoutMs / 1000)} s; the jobs go on. Check them with \`slowlane status <jobId>\`.`);
    return 3;
  }
  return outcomes.some((o) => FAILED.has(o.status)) ? 1 : 0;
}

/**
 * `slowlane submit --type order.score order.json` or `… -` (stdin): one job per JSON input. The Idempotency-Key
 * comes from the type and the input's canonical JSON, so the same command run again finds the same jobs.
 */
async function submitJsonCommand(client: SlowlaneClient, options: SubmitOptions & { type: string }, terminal: Terminal): Promise<number> {
  const outcomes: JobOutcome[] = [];
  for (const path of options.paths) {
    const outcome: JobOutcome = { file: path === '-' ? 'stdin' : path, status: 'pending' };
    outcomes.push(outcome);
    try {
      const input: unknown = JSON.parse(path === '-' ? await readStdin() : await readFile(path, 'utf8'));
      const idempotencyKey = `cli-${createHash('sha256').update(`${options.type}\n${canonicalJson(input)}`).digest('hex').slice(0, 32)}`;
      const answer = await client.submitJson({
        type: options.type,
        input,
        idempotencyKey,
        priority: options.priority,
        ...(options.callbackUrl ? { callbackUrl: options.callbackUrl } : {}),
        ...(options.deadline ? { deadline: options.deadline } : {}),
      });
      Object.assign(outcome, { jobId: answer.jobId, status: answer.status, replayed: answer.replayed });
      if (!options.json) terminal.out(`submitted ${outcome.file} → ${answer.jobId}${answer.replayed ? ' (already known)' : ''}`);
    } catch (error) {
      Object.assign(outcome, { status: 'submit_failed', error: describe(error) });
      terminal.note(`! ${outcome.file}: ${describe(error)}`);
    }
  }
  const timedOut = options.wait ? !(await waitForJobs(client, outcomes, options.timeoutMs, terminal)) : false;
  if (options.json) terminal.out(JSON.stringify(outcomes, null, 2));
  else for (const line of table([['INPUT', 'JOB', 'STATUS', 'DETAIL'], ...outcomes.map((o) => [o.file, o.jobId ?? '-', o.status, detailOf(o)])])) terminal.out(line);
  return exitCode(outcomes, timedOut, options, terminal);
}

/** Polls each unfinished job no faster than its Retry-After; true when all settled before the timeout. */
async function waitForJobs(client: SlowlaneClient, outcomes: JobOutcome[], timeoutMs: number, terminal: Terminal): Promise<boolean> {
  const startedAt = Date.now();
  const nextPollAt = new Map<JobOutcome, number>();
  const pending = () => outcomes.filter((o) => o.jobId && !SETTLED.has(o.status));
  while (pending().length > 0) {
    if (Date.now() - startedAt > timeoutMs) return false;
    const due = pending().filter((o) => (nextPollAt.get(o) ?? 0) <= Date.now());
    await forEachLimited(due, POLL_CONCURRENCY, async (outcome) => {
      try {
        const { job, retryAfterMs } = await client.get(outcome.jobId as string);
        const before = `${outcome.status}/${outcome.step ?? ''}`;
        const progressBefore = outcome.progress?.seq;
        Object.assign(outcome, fromJob(job));
        if (outcomes.length <= CHATTY_UP_TO && `${outcome.status}/${outcome.step ?? ''}` !== before) {
          terminal.note(`${outcome.jobId}: ${outcome.status}${outcome.step && outcome.status === 'processing' ? ` (${outcome.step})` : ''}`);
        }
        if (outcomes.length <= CHATTY_UP_TO && outcome.progress && outcome.progress.seq !== progressBefore) {
          terminal.note(`${outcome.jobId}: ${describeProgress(outcome.progress)}`);
        }
        nextPollAt.set(outcome, Date.now() + (retryAfterMs ?? DEFAULT_POLL_MS));
      } catch (error) {
        // The API may be restarting; the jobs are safe in Temporal. Ask again a little later.
        nextPollAt.set(outcome, Date.now() + 2 * DEFAULT_POLL_MS);
        terminal.note(`! ${outcome.jobId}: ${describe(error)}`);
      }
    });
    const elapsed = Math.round((Date.now() - startedAt) / 1000);
    terminal.progress(`waiting ${elapsed}s: ${summarize(outcomes.map((o) => o.status))}`);
    const wake = Math.min(...pending().map((o) => nextPollAt.get(o) ?? Date.now()));
    if (Number.isFinite(wake)) await delay(Math.max(50, wake - Date.now()));
  }
  terminal.done();
  return true;
}

function fromJob(job: Job): Partial<JobOutcome> {
  const invoice = isInvoiceResult(job.result) ? job.result : undefined;
  return {
    status: job.status,
    step: job.step,
    ledgerEntryId: invoice?.ledgerEntryId,
    totalAmount: invoice?.fields.totalAmount,
    currency: invoice?.fields.currency,
    result: job.result && !invoice ? JSON.stringify(job.result) : undefined,
    reviewDeadline: job.status === 'awaiting_review' ? job.reviewDeadline : undefined,
    progress: job.progress,
    error: job.error ? `${job.error.type}: ${job.error.message}` : undefined,
  };
}

function detailOf(outcome: JobOutcome): string {
  if (outcome.error) return outcome.error;
  if (outcome.status === 'posted') return `ledger ${outcome.ledgerEntryId ?? '?'} · ${outcome.totalAmount ?? '?'} ${outcome.currency ?? ''}`.trim();
  if (outcome.result) return outcome.result;
  if (outcome.status === 'awaiting_review') return `needs a reviewer${outcome.reviewDeadline ? ` before ${outcome.reviewDeadline}` : ''}`;
  if (outcome.status === 'processing' && outcome.step) return outcome.step;
  return outcome.replayed ? 'already known' : '';
}

function describe(error: unknown): string {
  if (error instanceof ApiCallError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}
