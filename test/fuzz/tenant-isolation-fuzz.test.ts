import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { describe, test } from '@jest/globals';
import fc from 'fast-check';
import { acme, apiUrl, demo, getJob, submit, waitForJob } from '../support/api-client';
import { markedInvoice } from '../support/operations';

/** Fixed by default so a CI failure can be replayed; FUZZ_SEED explores other corners. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_206);
const RUNS = 120;

/** What another tenant may try on a job: the routes that erase, read the audit of, or show a job, and the operators'. */
type Attempt = { method: string; path: (id: string) => string; body?: unknown; headers: Record<string, string> };

const headerToken = fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/);

const attempts: fc.Arbitrary<Attempt> = fc
  .tuple(
    fc.constantFrom(
      { method: 'DELETE', path: (id: string) => `/jobs/${encodeURIComponent(id)}` },
      { method: 'GET', path: (id: string) => `/jobs/${encodeURIComponent(id)}` },
      { method: 'GET', path: (id: string) => `/jobs/${encodeURIComponent(id)}/document` },
      { method: 'GET', path: (id: string) => `/audit?jobId=${encodeURIComponent(id)}` },
      { method: 'GET', path: (id: string) => `/audit?jobId=${encodeURIComponent(id)}&action=job.erase` },
      { method: 'POST', path: (id: string) => `/admin/jobs/${encodeURIComponent(id)}/abandon` },
      { method: 'GET', path: (id: string) => `/admin/audit?tenant=demo&jobId=${encodeURIComponent(id)}` },
    ),
    fc.record({ 'idempotency-key': headerToken, 'x-request-id': headerToken }, { requiredKeys: [] }),
    fc.option(fc.record({ reason: fc.string({ maxLength: 80 }), operator: fc.string({ maxLength: 20 }) }, { requiredKeys: [] }), { nil: undefined }),
  )
  .map(([route, headers, body]) => ({ ...route, headers, ...(route.method === 'POST' && body !== undefined ? { body } : {}) }));

/** The answer as another tenant sees it, with the id it asked about written as `<id>`: what must not tell two ids apart. */
async function seen(attempt: Attempt, id: string): Promise<string> {
  const response = await fetch(`${apiUrl()}${attempt.path(id)}`, {
    method: attempt.method,
    headers: {
      ...attempt.headers,
      authorization: `Bearer ${acme.apiKey}`,
      ...(attempt.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(attempt.body !== undefined ? { body: JSON.stringify(attempt.body) } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  const text = response.headers.get('content-type')?.includes('json') ? await response.text() : (await response.body?.cancel(), '');
  const body = text === '' ? undefined : (JSON.parse(text) as { error?: { code?: string; message?: string }; records?: Array<Record<string, unknown>> });
  assert.ok(response.status < 500, `${attempt.method} ${attempt.path(id)} answered ${response.status}: ${text.slice(0, 200)}`);
  const hide = (value: string | undefined) => value?.split(id).join('<id>').split(encodeURIComponent(id)).join('<id>');
  // A record's time and id differ between any two requests; what it says about the job must not.
  const records = body?.records?.map((record) => [record.action, record.tenantId, record.outcome, record.outcomeCode, hide(record.jobId as string)]);
  return JSON.stringify({ status: response.status, code: body?.error?.code, message: hide(body?.error?.message), records });
}

describe('another tenant against a job (fast-check)', () => {
  test("when another tenant erases, reads, audits or abandons a tenant's real job in generated ways, then every answer is the one an unknown id gets, and the job is untouched", async () => {
    const marker = `isolation-${randomUUID()}`;
    const submitted = await submit(await markedInvoice(marker).then((sample) => sample.bytes), { fileName: 'isolation.txt' });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    await waitForJob(jobId, ['posted', 'awaiting_review', 'rejected']);

    // An id of the same shape that never named a job, sent the same requests in the same order (so the attacker's
    // own trail holds as many attempts on each): the real job must be indistinguishable from it.
    const unknown = `${jobId.split(':').slice(0, 2).join(':')}:never-${randomUUID()}`;
    await fc.assert(
      fc.asyncProperty(attempts, async (attempt) => {
        assert.equal(await seen(attempt, jobId), await seen(attempt, unknown), `${attempt.method} ${attempt.path('<id>')}`);
      }),
      { numRuns: RUNS, seed: SEED },
    );

    const owner = await getJob(jobId, demo.apiKey);
    assert.equal(owner.status, 200, 'the owner still has its job: nothing another tenant sent erased it');
    const ownTrail = await fetch(`${apiUrl()}/audit?jobId=${encodeURIComponent(jobId)}`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
    const records = ((await ownTrail.json()) as { records: Array<{ tenantId: string }> }).records;
    assert.deepEqual(records, [], "the owner's trail holds nothing of the other tenant's attempts");
  });
});
