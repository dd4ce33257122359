import assert from '../support/assert';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, test } from '@jest/globals';
import { openApiDocument } from '../../api/openapi/document';
import { acme, apiUrl, demo, submit, waitForJob } from '../support/api-client';
import { openSocketAt, refusedStatus, socketToken } from '../support/job-socket-client';
import { routeOf } from '../support/openapi-conformance';
import { submitJobThatParks } from '../support/operations';
import { sampleWith } from '../support/samples';
import type { GivenUpWebhookList } from '../../common/api-contract/admin';
import { submitTickets, ticketsDay } from '../support/tickets';
import { TEST_OPERATOR } from '../support/test-credentials';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { startPushServiceStandIn } from '../../local/push-service/push-service';
import { usedSpeechCallback } from '../support/speech-callback-calls';
import { speakCall } from '../../local/samples/spoken-call';

const execFileAsync = promisify(execFile);
const REPO_ROOT = join(__dirname, '..', '..');
const ADMIN_KEY = TEST_OPERATOR.token;

interface Call {
  method: string;
  path: string;
  status: number;
}

/**
 * Calls the API through fetch, which test/support/api-client.ts holds to the OpenAPI document: a call that
 * answers outside the document fails right there. Each call is recorded so the test can check coverage.
 */
function recorder() {
  const calls: Call[] = [];
  const call = async (method: string, path: string, init: { key?: string; headers?: Record<string, string>; body?: string | FormData } = {}) => {
    const response = await fetch(`${apiUrl()}${path}`, {
      method,
      headers: { ...(init.key ? { authorization: `Bearer ${init.key}` } : {}), ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    // Read every body to the end: streams must end, and the check has seen JSON bodies already.
    await response.arrayBuffer();
    calls.push({ method, path: path.split('?')[0] as string, status: response.status });
    return response;
  };
  return { calls, call };
}

const json = (value: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });

describe('the OpenAPI document', () => {
  test('when /openapi.json is fetched, then it is the document the tests hold the API to, and redocly lint finds nothing', async () => {
    const response = await fetch(`${apiUrl()}/openapi.json`);
    assert.equal(response.status, 200);
    const served = (await response.json()) as Record<string, unknown>;
    assert.deepEqual(served, JSON.parse(JSON.stringify(openApiDocument({ serverUrl: apiUrl() }))));
    assert.equal(served.openapi, '3.1.0');

    const file = join(await mkdtemp(join(tmpdir(), 'slowlane-openapi-')), 'openapi.json');
    await writeFile(file, JSON.stringify(served, null, 2));
    const { stdout } = await execFileAsync(
      join(REPO_ROOT, 'node_modules', '.bin', 'redocly'),
      ['lint', file, '--config', join(REPO_ROOT, 'api', 'openapi', 'redocly.yaml'), '--format=json'],
      { cwd: REPO_ROOT, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }));
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string }> };
    assert.deepEqual(
      report.problems.map((p) => `${p.ruleId}: ${p.message}`),
      [],
      'redocly lint (recommended rules) reports no error and no warning',
    );
    assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
  });

  test('when every documented operation is called, with good and bad requests, then every answer matches the document', async () => {
    const { calls, call } = recorder();
    const pdf = await sampleWith('awaiting_review');
    const text = await sampleWith('posted', false);

    // Jobs: one to review, one finished text job.
    const form = (bytes: Uint8Array, fileName: string) => {
      const body = new FormData();
      body.set('type', 'invoice');
      body.set('file', new Blob([bytes]), fileName);
      return body;
    };
    const created = await call('POST', '/jobs', { key: demo.apiKey, headers: { 'idempotency-key': `openapi-${randomUUID()}` }, body: form(pdf.bytes, pdf.fileName) });
    assert.equal(created.status, 202);
    const reviewJob = (await (await fetch(created.headers.get('location') as string, { headers: { authorization: `Bearer ${demo.apiKey}` } })).json()) as { jobId: string };
    // Its receiver answers 410 Gone once: the job's webhook is given up, for the operators' redelivery route.
    const gone = await startWebhookReceiver({ goneFirst: 1 });
    const textJob = (await submit(text.bytes, { fileName: text.fileName, fields: { type: 'invoice', callbackUrl: gone.url } })).body.jobId as string;
    // An invoice whose extraction the provider refuses for good parks as a dead letter, for the operators' routes.
    const parked = await submitJobThatParks();
    const parkedJob = parked.jobId;
    await call('POST', '/jobs', { body: form(pdf.bytes, pdf.fileName) });
    await call('POST', '/jobs', { key: demo.apiKey, body: 'not multipart' });
    await waitForJob(reviewJob.jobId, ['awaiting_review']);
    await waitForJob(textJob, ['posted', 'awaiting_review']);
    await waitForJob(parkedJob, ['dead_letter']);
    await parked.removeFault();
    const review = `/jobs/${encodeURIComponent(reviewJob.jobId)}`;
    const done = `/jobs/${encodeURIComponent(textJob)}`;
    const unknown = `/jobs/${encodeURIComponent(`invoice:demo:${randomUUID()}`)}`;

    await call('GET', '/jobs?status=awaiting_review', { key: demo.reviewerToken });
    await call('GET', '/jobs?status=lost', { key: demo.apiKey });
    await call('GET', '/jobs');
    await call('GET', review, { key: demo.apiKey });
    await call('GET', done, { key: demo.reviewerToken });
    await call('GET', review, { key: acme.apiKey });
    await call('GET', unknown);

    await call('GET', `${done}/events`, { key: demo.apiKey });
    await call('GET', `${done}/events`, { key: demo.apiKey, headers: { 'last-event-id': '999' } });
    await call('GET', `${unknown}/events`, { key: demo.apiKey });
    await call('GET', `${done}/events`);

    // The WebSocket: its token, a plain GET (426), and the upgrade itself, which fetch cannot make (recorded by hand).
    const minted = await call('POST', '/events/socket/tokens', { key: demo.reviewerToken });
    assert.equal(minted.status, 201);
    await call('POST', '/events/socket/tokens');
    await call('GET', '/events/socket');
    await call('GET', '/events/socket?token=not-an-upgrade');
    const { url: socketUrl } = await socketToken(apiUrl(), demo.apiKey);
    (await openSocketAt(socketUrl)).close();
    calls.push({ method: 'GET', path: '/events/socket', status: 101 });
    calls.push({ method: 'GET', path: '/events/socket', status: await refusedStatus(socketUrl) });

    // Web Push: a subscription of the stand-in's (a renewal, a refusal, another tenant's view), its list and delete.
    const pushService = await startPushServiceStandIn();
    await call('GET', '/push/vapid-public-key');
    const { publicKey } = (await (await fetch(`${apiUrl()}/push/vapid-public-key`)).json()) as { publicKey: string };
    const { subscription } = pushService.subscribe(publicKey);
    const subscribe = (body: unknown, key?: string) => call('POST', '/push/subscriptions', { ...(key ? { key } : {}), ...json(body) });
    const registered = await subscribe({ ...subscription, reviewQueue: true }, demo.reviewerToken);
    assert.equal(registered.status, 201);
    assert.equal((await subscribe({ ...subscription, reviewQueue: true }, demo.reviewerToken)).status, 200);
    await subscribe({ ...subscription, jobId: reviewJob.jobId, reviewQueue: true }, demo.apiKey);
    await subscribe({ ...subscription, jobId: reviewJob.jobId }, acme.apiKey);
    await subscribe({ ...subscription, reviewQueue: true });
    await call('GET', '/push/subscriptions', { key: demo.apiKey });
    await call('GET', '/push/subscriptions');
    const pushId = (await fetch(`${apiUrl()}/push/subscriptions`, { headers: { authorization: `Bearer ${demo.apiKey}` } }).then((r) => r.json()) as { subscriptions: Array<{ id: string }> }).subscriptions[0]?.id as string;
    await call('DELETE', `/push/subscriptions/${pushId}`, { key: acme.apiKey });
    await call('DELETE', `/push/subscriptions/${pushId}`, { key: demo.apiKey });
    await call('DELETE', `/push/subscriptions/${pushId}`);
    await call('GET', '/push/service-worker.js');
    await call('GET', '/push/subscribe.js');
    await pushService.close();

    await call('GET', `${review}/document`, { key: demo.reviewerToken });
    await call('GET', `${done}/document`, { key: demo.apiKey });
    await call('GET', `${unknown}/document`, { key: demo.apiKey });
    await call('GET', `${review}/document`);

    // A call's transcript: a short scripted call to its end, an invoice (none), another tenant, no key.
    const spoken = await speakCall([{ speaker: 'A', text: 'Hello, your order ships on Friday.' }], join(await mkdtemp(join(tmpdir(), 'openapi-call-')), 'call.wav'), {
      carryScript: true,
    });
    const callJob = (await submit(await readFile(spoken.path), { fileName: 'call.wav', fields: { type: 'call.transcribe' } })).body.jobId as string;
    await waitForJob(callJob, ['completed', 'awaiting_review'], 120_000);
    const callPath = `/jobs/${encodeURIComponent(callJob)}`;
    await call('GET', `${callPath}/transcript`, { key: demo.reviewerToken });
    await call('GET', `${done}/transcript`, { key: demo.apiKey });
    await call('GET', `${callPath}/transcript`, { key: acme.apiKey });
    await call('GET', `${callPath}/transcript`);

    await call('POST', `${review}/review`, { key: demo.reviewerToken, ...json({ decision: 'maybe' }) });
    await call('POST', `${review}/review`, { key: demo.reviewerToken, ...json({ decision: 'approve', fields: { invoiceNumber: '' } }) });
    await call('POST', `${unknown}/review`, { key: demo.reviewerToken, ...json({ decision: 'reject', reason: 'x' }) });
    await call('POST', `${review}/review`, json({ decision: 'reject', reason: 'x' }));
    const approved = await call('POST', `${review}/review`, {
      key: demo.reviewerToken,
      ...json({
        decision: 'approve',
        fields: { invoiceNumber: 'OAS-1', issuer: 'Contract Supplier', issueDate: '2026-11-02', dueDate: null, currency: 'EUR', totalAmount: 1, subtotalAmount: null, taxAmount: null, lineItems: [] },
      }),
    });
    assert.equal(approved.status, 200);
    await call('POST', `${review}/review`, { key: demo.reviewerToken, ...json({ decision: 'reject', reason: 'too late' }) });

    // Cancel: a job not yet finished, then a finished one (409), a missing one (404) and no key (401).
    const running = (await submit(pdf.bytes, { fileName: pdf.fileName })).body.jobId as string;
    const cancelRunning = `/jobs/${encodeURIComponent(running)}/cancel`;
    await call('POST', cancelRunning);
    const cancelled = await call('POST', cancelRunning, { key: demo.apiKey });
    assert.ok([200, 202].includes(cancelled.status), `cancel answered ${cancelled.status}`);
    await call('POST', `${done}/cancel`, { key: demo.apiKey });
    await call('POST', `${unknown}/cancel`, { key: demo.apiKey });

    // The reviewer page and its assets.
    await call('GET', '/review');
    await call('GET', '/review/session', { key: demo.reviewerToken });
    await call('GET', '/review/session');
    const script = await call('GET', '/review/assets/reviewer.js');
    await call('GET', '/review/assets/reviewer.js', { headers: { 'if-none-match': script.headers.get('etag') ?? '' } });
    await call('GET', '/review/assets/reviewer.css');
    await call('GET', '/review/vendor/pdf.mjs');
    await call('GET', '/review/vendor/pdf.worker.mjs');
    await call('GET', '/review/vendor/standard_fonts/FoxitFixed.pfb');
    await call('GET', '/review/vendor/cmaps/78-EUC-H.bcmap');
    await call('GET', '/review/vendor/wasm/openjpeg.wasm');
    await call('GET', '/review/vendor/wasm/no-such-file.wasm');

    // Operators.
    await call('GET', '/admin/dead-letters?limit=5', { key: ADMIN_KEY });
    await call('GET', '/admin/dead-letters?limit=0', { key: ADMIN_KEY });
    await call('GET', '/admin/dead-letters', { key: demo.apiKey });
    await call('POST', `/admin${unknown}/replay`, { key: ADMIN_KEY, ...json({ dryRun: true }) });
    await call('POST', `/admin${done}/replay`, { key: ADMIN_KEY, ...json({ dryRun: true }) });
    const dryRun = await call('POST', `/admin/jobs/${encodeURIComponent(parkedJob)}/replay?dryRun=true`, { key: ADMIN_KEY });
    assert.equal(dryRun.status, 200);
    await call('POST', `/admin${done}/replay`, json({}));
    const woken = await call('POST', '/admin/tenants/demo/spend-cap-raised', { key: ADMIN_KEY });
    assert.equal(woken.status, 200);
    await call('POST', '/admin/tenants/no-such-tenant/spend-cap-raised', { key: ADMIN_KEY });
    await call('POST', '/admin/tenants/demo/spend-cap-raised', { key: demo.apiKey });
    await call('POST', '/admin/tenants/demo/spend-cap-raised');
    try {
      // Visibility lists the closed delivery a moment after the job's webhook is given up.
      let deliveryId: string | undefined;
      for (let i = 0; i < 120 && !deliveryId; i++) {
        const answer = await fetch(`${apiUrl()}/admin/webhooks/given-up?limit=1000`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
        deliveryId = ((await answer.json()) as GivenUpWebhookList).deliveries.find((delivery) => delivery.jobId === textJob)?.deliveryId;
        if (!deliveryId) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      assert.ok(deliveryId, `the webhook of ${textJob} was given up`);
      const redelivery = `/admin/webhooks/${encodeURIComponent(deliveryId)}/redeliver`;
      await call('GET', '/admin/webhooks/given-up?limit=5', { key: ADMIN_KEY });
      await call('GET', '/admin/webhooks/given-up', { key: demo.apiKey });
      await call('GET', '/admin/webhooks/given-up');
      await call('POST', redelivery, { key: demo.apiKey });
      await call('POST', redelivery);
      assert.equal((await call('POST', redelivery, { key: ADMIN_KEY })).status, 200);
      await call('POST', redelivery, { key: ADMIN_KEY });
      await call('POST', `/admin/webhooks/${encodeURIComponent(`webhook:${randomUUID()}`)}/redeliver`, { key: ADMIN_KEY });
    } finally {
      await gone.close();
    }

    // Schedules, on the upload of a finished digest.
    const digestJob = (await submitTickets(ticketsDay(40, 21).bytes)).body.jobId as string;
    await waitForJob(digestJob, ['completed'], 120_000);
    const scheduleId = `openapi-${randomUUID().slice(0, 8)}`;
    const schedule = `/schedules/${scheduleId}`;
    const scheduleRequest = { scheduleId, type: 'tickets.digest', every: '1d', input: { jobId: digestJob } };
    const createdSchedule = await call('POST', '/schedules', { key: demo.apiKey, ...json(scheduleRequest) });
    assert.equal(createdSchedule.status, 201);
    await call('POST', '/schedules', { key: demo.apiKey, ...json(scheduleRequest) });
    await call('POST', '/schedules', { key: demo.apiKey, ...json({ ...scheduleRequest, scheduleId: 'bad-cron', every: undefined, cron: 'at six' }) });
    await call('POST', '/schedules', json(scheduleRequest));
    await call('GET', '/schedules', { key: demo.apiKey });
    await call('GET', '/schedules');
    for (const action of ['pause', 'resume', 'trigger']) {
      await call('POST', `${schedule}/${action}`, { key: demo.apiKey });
      await call('POST', `${schedule}/${action}`, { key: acme.apiKey });
      await call('POST', `${schedule}/${action}`);
    }
    await call('POST', `${schedule}/pause`, { key: demo.apiKey, ...json({ note: 7 }) });
    await call('GET', schedule, { key: demo.apiKey });
    await call('GET', schedule, { key: acme.apiKey });
    await call('GET', schedule);
    await call('DELETE', schedule, { key: acme.apiKey });
    await call('DELETE', schedule);
    const deleted = await call('DELETE', schedule, { key: demo.apiKey });
    assert.equal(deleted.status, 204);

    // Erasure last: the finished text job is gone afterwards.
    await call('DELETE', done);
    await call('DELETE', done, { key: acme.apiKey });
    await call('DELETE', done, { key: demo.reviewerToken });
    assert.equal((await call('DELETE', done, { key: demo.apiKey, headers: { 'x-request-id': 'openapi-erasure' } })).status, 200);
    await call('DELETE', done, { key: demo.apiKey });
    await call('DELETE', unknown, { key: demo.apiKey });

    // The audit trail: abandon the parked job, then read back what the calls above recorded.
    const abandon = `/admin/jobs/${encodeURIComponent(parkedJob)}/abandon`;
    await call('POST', abandon, { key: demo.apiKey });
    await call('POST', abandon);
    assert.equal((await call('POST', abandon, { key: ADMIN_KEY, ...json({ reason: 'openapi test' }) })).status, 200);
    await call('POST', abandon, { key: ADMIN_KEY });
    await call('POST', `/admin${unknown}/abandon`, { key: ADMIN_KEY });
    await call('POST', abandon, { key: ADMIN_KEY, ...json({ note: 1 }) });
    assert.equal((await call('GET', '/audit?limit=2', { key: demo.apiKey })).status, 200);
    await call('GET', `/audit?jobId=${encodeURIComponent(textJob)}&action=job.erase`, { key: demo.apiKey });
    await call('GET', '/audit?action=nope', { key: demo.apiKey });
    await call('GET', '/audit?pageToken=forged.token', { key: demo.apiKey });
    await call('GET', '/audit', { key: demo.reviewerToken });
    await call('GET', '/audit');
    assert.equal((await call('GET', '/admin/audit?tenant=demo&limit=2', { key: ADMIN_KEY })).status, 200);
    await call('GET', '/admin/audit', { key: ADMIN_KEY });
    await call('GET', '/admin/audit?tenant=demo', { key: demo.apiKey });
    await call('GET', '/admin/audit?tenant=demo');

    // The speech provider's webhook: a used callback (200 duplicate), then forged, headerless, bodiless and unknown ones.
    const speech = await usedSpeechCallback(apiUrl());
    const speechPath = (url: string) => url.slice(apiUrl().length);
    const speechAuth = (callback: typeof speech.callback) => ({ [callback.authHeaderName]: callback.authHeaderValue });
    const delivered = json({ transcript_id: speech.transcriptId, status: 'completed' });
    const duplicate = await call('POST', speechPath(speech.callback.url), { ...delivered, headers: { ...delivered.headers, ...speechAuth(speech.callback) } });
    assert.equal(duplicate.status, 200);
    await call('POST', speechPath(speech.callback.url).replace(/sig=.*/, 'sig=forged'), { ...delivered, headers: { ...delivered.headers, ...speechAuth(speech.callback) } });
    await call('POST', speechPath(speech.callback.url), delivered);
    await call('POST', speechPath(speech.callback.url), { ...json({ status: 'completed' }), headers: { ...delivered.headers, ...speechAuth(speech.callback) } });
    await call('POST', speechPath(speech.unarmed.url), { ...delivered, headers: { ...delivered.headers, ...speechAuth(speech.unarmed) } });

    await call('GET', '/healthz');
    await call('GET', '/readyz');
    await call('GET', '/openapi.json');
    await call('GET', '/no/such/route');

    // Coverage: every operation in the document was called, and the secured ones were also refused without a key.
    const document = openApiDocument({ serverUrl: apiUrl() }) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    const seen = new Map<string, number[]>();
    for (const c of calls) {
      const key = `${c.method} ${routeOf(c.path) ?? c.path}`;
      seen.set(key, [...(seen.get(key) ?? []), c.status]);
    }
    for (const [template, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const statuses = seen.get(`${method.toUpperCase()} ${template}`);
        assert.ok(statuses, `${method.toUpperCase()} ${template} was never called; add it to this test`);
        assert.ok(statuses.some((s) => s < 400), `${method.toUpperCase()} ${template} never succeeded: ${statuses.join(', ')}`);
        if (operation.security?.length) assert.ok(statuses.includes(401), `${method.toUpperCase()} ${template} was not tried without a key`);
      }
    }
    assert.deepEqual(seen.get('GET /no/such/route'), [404]);
  });
});
