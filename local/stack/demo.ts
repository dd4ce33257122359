import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { generateSamples } from '../samples/generate';
import { LONG_DOCUMENT_PAGES, writeLongDocument } from '../samples/long-document';

interface SubmittedJob {
  jobId: string;
  fileName: string;
  expected: string;
  status: string;
  step?: string;
  /** False for the long document: its progress is printed while the invoices run, but nothing waits for it. */
  followed: boolean;
}

interface JobView {
  status: string;
  step?: string;
  progress?: { seq: number; pagesRead: number; done: number; total: number; usage: { costUsd: number } };
}

const SETTLED = new Set(['posted', 'completed', 'rejected', 'review_expired', 'failed', 'cancelled', 'dead_letter', 'awaiting_review']);

/**
 * Submits the project's samples through the public API, the way a client would — the sample invoices and the
 * generated long PDF as a `document` job — and prints each job's status as it moves (and the document's
 * progress) until the invoices settle. The Idempotency-Key comes from the file's content, so a second
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
  const submit = async (path: string, type: string, expected: string, followed: boolean): Promise<void> => {
    const bytes = await readFile(path);
    const key = `sample-${createHash('sha256').update(bytes).digest('hex').slice(0, 24)}`;
    const form = new FormData();
    form.set('type', type);
    form.set('file', new Blob([bytes]), basename(path));
    const response = await fetch(`${apiUrl}/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': key },
      body: form,
    });
    const body = (await response.json()) as { jobId?: string; status?: string; error?: { message: string } };
    if (response.status !== 202 || !body.jobId) {
      report(`  ! ${basename(path)}: ${response.status} ${body.error?.message ?? ''}`);
      return;
    }
    const replayed = response.headers.get('idempotent-replayed') === 'true';
    jobs.push({ jobId: body.jobId, fileName: basename(path), expected, status: body.status ?? 'queued', followed });
    report(`  submitted ${basename(path).padEnd(34)} → ${body.jobId}${replayed ? ' (already known)' : ''}`);
  };
  const jobs: SubmittedJob[] = [];
  for (const sample of await generateSamples(options.samplesDir)) await submit(sample.path, 'invoice', sample.expectedOutcome, true);
  const longDocument = await writeLongDocument(options.samplesDir, options.longDocumentPages ?? LONG_DOCUMENT_PAGES);
  await submit(longDocument, 'document', 'completed', false);

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
      const label = progress
        ? `${status} · ${progress.pagesRead} pages read · ${progress.done}/${progress.total} chunks · $${progress.usage.costUsd.toFixed(4)}`
        : status;
      if (lastSeen.get(job.jobId) !== label) {
        lastSeen.set(job.jobId, label);
        report(`  ${new Date().toISOString().slice(11, 19)}  ${job.fileName.padEnd(34)} ${label}`);
      }
    }
    await delay(500);
  }
  return jobs;
}
