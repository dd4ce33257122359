import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { writeDemoTickets } from '../samples/tickets-day';

export const DEMO_SCHEDULE_ID = 'daily-digest';

interface DigestDemo {
  jobId?: string;
  status?: string;
  narrative?: string;
  scheduleId?: string;
}

/**
 * The demo's `tickets.digest`: a generated day of 3,000 tickets submitted through the API like any client would
 * (the Idempotency-Key comes from the file, so a second `npm start` finds the same job), then a schedule that runs
 * the same digest every morning at 06:00 UTC on that upload. Prints the job as it moves and the digest's narrative.
 */
export async function submitDigestDemo(options: {
  apiUrl: string;
  apiKey: string;
  samplesDir: string;
  report: (line: string) => void;
  timeoutMs?: number;
}): Promise<DigestDemo> {
  const { apiUrl, report } = options;
  const headers = { authorization: `Bearer ${options.apiKey}` };
  const path = await writeDemoTickets(options.samplesDir);
  const bytes = await readFile(path);
  const form = new FormData();
  form.set('type', 'tickets.digest');
  form.set('file', new Blob([bytes]), basename(path));
  const key = `sample-${createHash('sha256').update(bytes).digest('hex').slice(0, 24)}`;
  const submitted = await fetch(`${apiUrl}/jobs`, { method: 'POST', headers: { ...headers, 'idempotency-key': key }, body: form });
  const body = (await submitted.json()) as { jobId?: string; error?: { message: string } };
  if (submitted.status !== 202 || !body.jobId) {
    report(`  ! ${basename(path)}: ${submitted.status} ${body.error?.message ?? ''}`);
    return {};
  }
  const demo: DigestDemo = { jobId: body.jobId };
  report(`  submitted ${basename(path).padEnd(34)} → ${body.jobId}`);

  const schedule = await fetch(`${apiUrl}/schedules`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ scheduleId: DEMO_SCHEDULE_ID, type: 'tickets.digest', cron: '0 6 * * *', timezone: 'UTC', input: { jobId: body.jobId } }),
  });
  if (schedule.status === 201 || schedule.status === 409) {
    demo.scheduleId = DEMO_SCHEDULE_ID;
    report(`  schedule  ${DEMO_SCHEDULE_ID} (06:00 UTC daily, same tickets)${schedule.status === 409 ? ' (already known)' : ''}`);
  } else {
    report(`  ! schedule ${DEMO_SCHEDULE_ID}: ${schedule.status} ${await schedule.text()}`);
  }

  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  let last = '';
  while (Date.now() < deadline) {
    const response = await fetch(`${apiUrl}/jobs/${encodeURIComponent(body.jobId)}`, { headers });
    if (response.ok) {
      const job = (await response.json()) as { status: string; step?: string; progress?: { done: number; total: number }; result?: { narrative?: string } };
      const label = job.status === 'processing' ? `processing (${job.step ?? '?'}${job.progress ? ` ${job.progress.done}/${job.progress.total}` : ''})` : job.status;
      if (label !== last) report(`  ${new Date().toISOString().slice(11, 19)}  ${basename(path).padEnd(34)} ${(last = label)}`);
      demo.status = job.status;
      if (!['queued', 'processing'].includes(job.status)) {
        demo.narrative = job.result?.narrative;
        break;
      }
    }
    await delay(500);
  }
  if (demo.narrative) report(`  digest: ${demo.narrative}`);
  return demo;
}
