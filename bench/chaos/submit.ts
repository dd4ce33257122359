import { setTimeout as sleep } from 'node:timers/promises';
import { generateLocalSecrets, type LocalPerson, type LocalTenant } from '../../local/stack/local-secrets';
import type { JobKind } from './job-mix';

/** The bench's own stack credentials, generated per run like `npm start`'s (the product refuses demo values). */
export const SECRETS = generateLocalSecrets();
const tenant = SECRETS.tenants[0] as LocalTenant;
export const API_KEY = tenant.apiKey;
export const TENANT_ID = tenant.id;
export const REVIEWER_TOKEN = (tenant.reviewers[0] as LocalPerson).token;

export interface SubmittedJob {
  index: number;
  kind: JobKind;
  jobId: string;
  submittedAt: number;
}

/** One upload; its Idempotency-Key makes a retried upload (API busy, server restarting) the same job. */
async function submitOne(apiUrl: string, kind: JobKind, index: number, runId: string): Promise<string> {
  const input = await kind.form(index, runId);
  const request = (): RequestInit => {
    if ('json' in input) return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(input.json) };
    const form = new FormData();
    for (const [name, value] of Object.entries(input.fields)) form.set(name, value);
    form.set('file', new Blob([input.file.bytes]), input.file.fileName);
    return { body: form };
  };
  for (let attempt = 1; ; attempt++) {
    const { headers, body: payload } = request();
    const response = await fetch(`${apiUrl}/jobs`, {
      method: 'POST',
      headers: { ...(headers as Record<string, string>), authorization: `Bearer ${API_KEY}`, 'idempotency-key': `chaos-${runId}-${index}` },
      body: payload,
    }).catch(() => undefined);
    const body = (await response?.json().catch(() => undefined)) as
      { jobId?: string; error?: { message?: string } } | undefined;
    if (response?.status === 202 && body?.jobId) return body.jobId;
    if (attempt >= 20 || (response && response.status < 500 && response.status !== 429)) {
      throw new Error(`POST /jobs answered ${response?.status ?? 'nothing'}: ${body?.error?.message ?? ''}`);
    }
    await sleep(500);
  }
}

/** Submits the plan; `progress` sees the jobs accepted so far after each one. */
export async function submitAll(
  apiUrl: string,
  plan: JobKind[],
  runId: string,
  concurrency: number,
  progress: (jobs: SubmittedJob[]) => void = () => undefined,
): Promise<SubmittedJob[]> {
  const jobs: SubmittedJob[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < plan.length) {
        const index = next++;
        const kind = plan[index] as JobKind;
        const submittedAt = Date.now();
        jobs.push({ index, kind, jobId: await submitOne(apiUrl, kind, index, runId), submittedAt });
        progress([...jobs]);
      }
    }),
  );
  return jobs.sort((a, b) => a.index - b.index);
}

/**
 * The benchmark's reviewer: every few seconds it lists the jobs waiting for a person and approves ours through the
 * API, as the reviewer page would. Errors (Temporal restarting, a job that moved on) are tried again next round.
 */
export function keepApproving(apiUrl: string, jobs: () => SubmittedJob[]): { stop(): Promise<number> } {
  let running = true;
  const approved = new Set<string>();
  const loop = (async () => {
    while (running) {
      try {
        const byId = new Map(jobs().map((job) => [job.jobId, job]));
        const response = await fetch(`${apiUrl}/jobs?status=awaiting_review&limit=200`, {
          headers: { authorization: `Bearer ${API_KEY}` },
        });
        const waiting = response.ok ? ((await response.json()) as { jobs: Array<{ jobId: string }> }).jobs : [];
        for (const { jobId } of waiting) {
          const job = byId.get(jobId);
          if (!job?.kind.approval || approved.has(jobId)) continue;
          const answer = await fetch(`${apiUrl}/jobs/${encodeURIComponent(jobId)}/review`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${REVIEWER_TOKEN}`,
              'content-type': 'application/json',
              'idempotency-key': `approve-${jobId.replaceAll(':', '-')}`,
            },
            body: JSON.stringify(job.kind.approval(job.index)),
          });
          if (answer.status === 200) approved.add(jobId);
        }
      } catch {
        // The API or Temporal restarting: the next round tries again.
      }
      await sleep(1_500);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return approved.size;
    },
  };
}
