import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { generateSamples } from '../samples/generate';

interface SubmittedJob {
  jobId: string;
  fileName: string;
  expected: string;
  status: string;
  step?: string;
}

const SETTLED = new Set(['posted', 'rejected', 'review_expired', 'failed', 'dead_letter', 'awaiting_review']);

/**
 * Submits the project's sample invoices through the public API, the way a client would, and prints each job's
 * status as it moves. The Idempotency-Key comes from the file's content, so a second `npm start` finds the
 * same jobs instead of creating new ones.
 */
export async function submitSamples(options: {
  apiUrl: string;
  apiKey: string;
  samplesDir: string;
  report: (line: string) => void;
  timeoutMs?: number;
}): Promise<SubmittedJob[]> {
  const { apiUrl, apiKey, report } = options;
  const samples = await generateSamples(options.samplesDir);
  const jobs: SubmittedJob[] = [];
  for (const sample of samples) {
    const bytes = await readFile(sample.path);
    const key = `sample-${createHash('sha256').update(bytes).digest('hex').slice(0, 24)}`;
    const form = new FormData();
    form.set('type', 'invoice');
    form.set('file', new Blob([bytes]), basename(sample.path));
    const response = await fetch(`${apiUrl}/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': key },
      body: form,
    });
    const body = (await response.json()) as { jobId?: string; status?: string; error?: { message: string } };
    if (response.status !== 202 || !body.jobId) {
      report(`  ! ${sample.fileName}: ${response.status} ${body.error?.message ?? ''}`);
      continue;
    }
    const replayed = response.headers.get('idempotent-replayed') === 'true';
    jobs.push({ jobId: body.jobId, fileName: sample.fileName, expected: sample.expectedOutcome, status: body.status ?? 'queued' });
    report(`  submitted ${sample.fileName.padEnd(34)} → ${body.jobId}${replayed ? ' (already known)' : ''}`);
  }

  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  const lastSeen = new Map<string, string>();
  while (Date.now() < deadline && jobs.some((job) => !SETTLED.has(job.status))) {
    for (const job of jobs.filter((j) => !SETTLED.has(j.status) || !lastSeen.has(j.jobId))) {
      const response = await fetch(`${apiUrl}/jobs/${encodeURIComponent(job.jobId)}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      if (!response.ok) continue;
      const view = (await response.json()) as { status: string; step?: string };
      job.status = view.status;
      job.step = view.step;
      const label = view.step && view.status === 'processing' ? `${view.status} (${view.step})` : view.status;
      if (lastSeen.get(job.jobId) !== label) {
        lastSeen.set(job.jobId, label);
        report(`  ${new Date().toISOString().slice(11, 19)}  ${job.fileName.padEnd(34)} ${label}`);
      }
    }
    await delay(500);
  }
  return jobs;
}
