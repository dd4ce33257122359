import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { generateSamples } from '../samples/generate';
import { LONG_DOCUMENT_PAGES, writeLongDocument } from '../samples/long-document';
import { writeQuietCall, writeSampleCall } from '../samples/sample-call';
import { SAMPLE_ORDERS } from '../samples/sample-orders';

interface SubmittedJob {
  jobId: string;
  /** The file's name, or the sample order's. */
  name: string;
  expected: string;
  status: string;
  step?: string;
  /** False for the long document: its progress is printed while the invoices run, but nothing waits for it. */
  followed: boolean;
}

interface JobView {
  status: string;
  step?: string;
  progress?: { seq: number; unit?: string; pagesRead?: number; done: number; total: number; usage: { costUsd: number } };
  result?: { summary?: CallSummaryView; transcriptKey?: string };
}

interface CallSummaryView {
  summary: string;
  actionItems: Array<{ text: string; owner: string | null }>;
  outcome: string;
}

const SETTLED = new Set(['posted', 'completed', 'rejected', 'review_expired', 'failed', 'cancelled', 'dead_letter', 'awaiting_review']);

/**
 * Submits the project's samples through the public API, the way a client would — the sample invoices, three
 * orders to score (approved, grey zone, declined), two generated two-voice support calls as `call.transcribe` jobs
 * (one completes, one heard poorly waits in review)
 * and the generated long PDF as a `document` job — and prints each job's status as it moves (and the document's
 * and the call's progress) until the invoices and the call settle, then the call's summary. The Idempotency-Key comes from the file's content, so a second
 * `npm start` finds the same jobs instead of creating new ones.
 */
export async function submitSamples(options: {
  apiUrl: string;
  apiKey: string;
  samplesDir: string;
  report: (line: string) => void;
  timeoutMs?: number;
  /** Pages of the generated long document (300 for `npm start`; tests use a few). */
  longDocumentPages?: number;
}): Promise<SubmittedJob[]> {
  const { apiUrl, apiKey, report } = options;
  const post = async (name: string, bytes: Uint8Array, body: FormData | string, expected: string, followed: boolean): Promise<void> => {
    const key = `sample-${createHash('sha256').update(bytes).digest('hex').slice(0, 24)}`;
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, 'idempotency-key': key };
    // A form sets its own multipart content type; a JSON body names its own.
    if (typeof body === 'string') headers['content-type'] = 'application/json';
    const response = await fetch(`${apiUrl}/jobs`, {
      method: 'POST',
      headers,
      body,
    });
    const answer = (await response.json()) as { jobId?: string; status?: string; error?: { message: string } };
    if (response.status !== 202 || !answer.jobId) {
      report(`  ! ${name}: ${response.status} ${answer.error?.message ?? ''}`);
      return;
    }
    const replayed = response.headers.get('idempotent-replayed') === 'true';
    jobs.push({ jobId: answer.jobId, name, expected, status: answer.status ?? 'queued', followed });
    report(`  submitted ${name.padEnd(34)} → ${answer.jobId}${replayed ? ' (already known)' : ''}`);
  };
  const submitFile = async (path: string, type: string, expected: string, followed: boolean): Promise<void> => {
    const bytes = await readFile(path);
    const form = new FormData();
    form.set('type', type);
    form.set('file', new Blob([bytes]), basename(path));
    await post(basename(path), bytes, form, expected, followed);
  };
  const jobs: SubmittedJob[] = [];
  for (const sample of await generateSamples(options.samplesDir)) await submitFile(sample.path, 'invoice', sample.expectedOutcome, true);
  for (const order of SAMPLE_ORDERS) {
    const body = JSON.stringify({ type: 'order.score', input: order.input });
    await post(order.name, new TextEncoder().encode(body), body, order.expected, true);
  }
  const call = await writeSampleCall(options.samplesDir);
  await submitFile(call.path, 'call.transcribe', 'completed', true);
  // Heard with low confidence: it waits in review, so the reviewer page has a call to play beside its transcript.
  const quietCall = await writeQuietCall(options.samplesDir);
  await submitFile(quietCall.path, 'call.transcribe', 'awaiting_review', true);
  const longDocument = await writeLongDocument(options.samplesDir, options.longDocumentPages ?? LONG_DOCUMENT_PAGES);
  await submitFile(longDocument, 'document', 'completed', false);

  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  const lastSeen = new Map<string, string>();
  const unsettled = (job: SubmittedJob) => !SETTLED.has(job.status);
  while (Date.now() < deadline && jobs.some((job) => job.followed && unsettled(job))) {
    for (const job of jobs.filter((j) => unsettled(j) || !lastSeen.has(j.jobId))) {
      const response = await fetch(`${apiUrl}/jobs/${encodeURIComponent(job.jobId)}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      if (!response.ok) continue;
      const view = (await response.json()) as JobView;
      job.status = view.status;
      job.step = view.step;
      const { progress } = view;
      const status = view.step && view.status === 'processing' ? `${view.status} (${view.step})` : view.status;
      const read = progress?.pagesRead !== undefined ? ` · ${progress.pagesRead} pages read` : '';
      const label = progress
        ? `${status}${read} · ${progress.done}/${progress.total} ${progress.unit ?? 'chunks'} · $${progress.usage.costUsd.toFixed(4)}`
        : status;
      if (lastSeen.get(job.jobId) !== label) {
        lastSeen.set(job.jobId, label);
        report(`  ${new Date().toISOString().slice(11, 19)}  ${job.name.padEnd(34)} ${label}`);
        if (view.status === 'completed' && view.result?.summary) reportCall(job.name, view.result.summary, report);
      }
    }
    await delay(500);
  }
  return jobs;
}

/** What the model made of the sample call: its summary, action items with owners, and outcome. */
function reportCall(name: string, call: CallSummaryView, report: (line: string) => void): void {
  report(`  ${name}: ${call.outcome} · ${call.summary}`);
  for (const item of call.actionItems) report(`    - ${item.text}${item.owner ? ` (${item.owner})` : ''}`);
}
