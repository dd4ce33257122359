import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { Connection, ScheduleNotFoundError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { Schedule, ScheduleList } from '../../common/api-contract/schedule';
import { acme, apiUrl, demo, getJob, waitForJob } from '../support/api-client';
import { temporalClient } from '../support/operations';
import { testEnv } from '../support/test-env';
import { digestOf, eventually, schedulesApi, submitTickets, ticketsDay } from '../support/tickets';

const day = ticketsDay(300, 11);

async function addSimulatorFault(rule: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${testEnv().simulatorUrl}/_sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) });
  assert.equal(response.status, 201);
}

async function simulatorFaultRules(): Promise<unknown[]> {
  return ((await (await fetch(`${testEnv().simulatorUrl}/_sim/faults`)).json()) as { rules: unknown[] }).rules;
}
let inputJobId = '';
const scheduleId = `nightly-${Date.now()}`;

const scheduleBody = (overrides: Record<string, unknown> = {}) => ({
  scheduleId,
  type: 'tickets.digest',
  cron: '0 6 * * *',
  timezone: 'Europe/Berlin',
  input: { jobId: inputJobId },
  ...overrides,
});

describe('schedules: real Temporal Schedules whose runs are ordinary jobs', () => {
  beforeAll(async () => {
    const submitted = await submitTickets(day.bytes, { key: `schedule-input-${Date.now()}` });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    inputJobId = submitted.body.jobId as string;
    await waitForJob(inputJobId, ['completed'], 120_000);
  });

  afterAll(async () => {
    await schedulesApi('DELETE', `/schedules/${scheduleId}`);
  });

  test('when a schedule is created, then Temporal holds it, it reads back as sent, and a second one with its id is a 409', async () => {
    const created = await schedulesApi<Schedule>('POST', '/schedules', scheduleBody());
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.headers.get('location'), `${apiUrl()}/schedules/${scheduleId}`);
    assert.equal(created.body.state, 'active');
    assert.equal(created.body.cron, '0 6 * * *');
    assert.equal(created.body.timezone, 'Europe/Berlin');
    assert.equal(created.body.priority, 'bulk');
    assert.deepEqual(created.body.input, { jobId: inputJobId });
    const next = created.body.nextRunAt[0];
    assert.ok(next, 'it knows its next time');
    // 06:00 in Berlin is 05:00 or 04:00 UTC, whichever the season says.
    assert.match(next, /T0[45]:00:00(\.000)?Z$/);

    const client = await temporalClient();
    try {
      const description = await client.schedule.getHandle(`demo:${scheduleId}`).describe();
      assert.equal(description.action.workflowId, `tickets.digest:demo:schedule.${scheduleId}`);
      assert.equal(description.policies.overlap, 'SKIP');
      assert.equal((description.memo as { inputJobId?: string } | undefined)?.inputJobId, inputJobId, 'through the codec the memo reads');
    } finally {
      await client.connection.close();
    }

    // Without the codec, as the server (or its database) holds it: the memo, the runs' input and their summary are
    // ciphertext like a job's (encrypted-histories.test.ts), so neither the input job, the file's digest nor its name shows.
    const { temporalAddress, temporalNamespace } = testEnv();
    const plain = await Connection.connect({ address: temporalAddress as string });
    try {
      const raw = await plain.workflowService.describeSchedule({ namespace: temporalNamespace, scheduleId: `demo:${scheduleId}` });
      const bytes = Buffer.from(temporal.api.workflowservice.v1.DescribeScheduleResponse.encode(raw).finish()).toString('latin1');
      assert.ok(bytes.includes(`tickets.digest:demo:schedule.${scheduleId}`), 'the raw answer is the schedule (its action id is no secret)');
      for (const secret of [inputJobId, createHash('sha256').update(day.bytes).digest('hex'), 'tickets.jsonl']) {
        assert.ok(!bytes.includes(secret), `${secret} is readable on the server`);
      }
    } finally {
      await plain.close();
    }

    const again = await schedulesApi('POST', '/schedules', scheduleBody());
    assert.equal(again.status, 409);
    assert.equal(again.body.error?.code, 'schedule_exists');
  });

  test('when a schedule is triggered, then a run starts as an ordinary job, readable and listed, and it settles', async () => {
    const triggered = await schedulesApi<Schedule>('POST', `/schedules/${scheduleId}/trigger`);
    assert.equal(triggered.status, 202, JSON.stringify(triggered.body));
    const run = await eventually('the triggered run', async () => {
      const schedule = await schedulesApi<Schedule>('GET', `/schedules/${scheduleId}`);
      return schedule.body.recentRuns?.[0];
    });
    assert.match(run.jobId, new RegExp(`^tickets\\.digest:demo:schedule\\.${scheduleId}-\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$`));

    const done = await waitForJob(run.jobId, ['completed', 'failed', 'dead_letter'], 120_000);
    assert.equal(done.status, 'completed', JSON.stringify(done.error ?? done));
    assert.equal(done.scheduleId, scheduleId);
    assert.equal(done.priority, 'bulk');
    assert.equal(digestOf(done)?.ticketCount, 300);
    assert.equal(digestOf(done)?.urgentCount, day.urgent.length);
    assert.ok(done.submittedAt, 'a scheduled run reports when it started');

    await eventually('the run in GET /jobs', async () => {
      const response = await fetch(`${apiUrl()}/jobs?limit=100`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
      const list = (await response.json()) as { jobs: Array<{ jobId: string }> };
      return list.jobs.find((job) => job.jobId === run.jobId);
    });
    assert.equal((await getJob(run.jobId, acme.apiKey)).status, 404, 'another tenant cannot read the run');
  });

  test('when a schedule is paused and resumed, then its state and next times follow', async () => {
    const paused = await schedulesApi<Schedule>('POST', `/schedules/${scheduleId}/pause`, { note: 'holiday' });
    assert.equal(paused.status, 200, JSON.stringify(paused.body));
    assert.equal(paused.body.state, 'paused');
    assert.equal(paused.body.note, 'holiday');
    assert.deepEqual(paused.body.nextRunAt, []);
    const resumed = await schedulesApi<Schedule>('POST', `/schedules/${scheduleId}/resume`);
    assert.equal(resumed.status, 200);
    assert.equal(resumed.body.state, 'active');
    assert.ok(resumed.body.nextRunAt.length > 0);
  });

  test('when another tenant names the schedule, then every route answers 404 as for a missing one, and its list is empty of it', async () => {
    const listed = await eventually('the schedule in GET /schedules', async () => {
      const list = await schedulesApi<ScheduleList>('GET', '/schedules');
      return list.body.schedules?.find((schedule) => schedule.scheduleId === scheduleId);
    });
    assert.equal(listed.type, 'tickets.digest');
    const foreign = await schedulesApi<ScheduleList>('GET', '/schedules', undefined, acme.apiKey);
    assert.equal(foreign.status, 200);
    assert.ok(!foreign.body.schedules.some((schedule) => schedule.scheduleId === scheduleId));
    const missing = await schedulesApi('GET', '/schedules/no-such-schedule', undefined, acme.apiKey);
    for (const [method, path] of [
      ['GET', `/schedules/${scheduleId}`],
      ['POST', `/schedules/${scheduleId}/pause`],
      ['POST', `/schedules/${scheduleId}/trigger`],
      ['DELETE', `/schedules/${scheduleId}`],
    ] as const) {
      const answer = await schedulesApi(method, path, undefined, acme.apiKey);
      assert.equal(answer.status, 404, `${method} ${path}`);
      assert.deepEqual(answer.body.error?.code, missing.body.error?.code);
    }
    const borrowed = await schedulesApi('POST', '/schedules', { ...scheduleBody(), scheduleId: 'borrowed' }, acme.apiKey);
    assert.equal(borrowed.status, 404, 'another tenant cannot schedule on demo’s upload: it is no job of theirs');
    assert.equal(borrowed.body.error?.details?.field, 'input');
  });

  test('when the cron, the time zone or the interval is bad, then it is a 400 naming the field', async () => {
    for (const [overrides, field] of [
      [{ cron: 'every morning' }, 'cron'],
      [{ cron: '0 6 * *' }, 'cron'],
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ cron: undefined, every: '0m' }, 'every'],
      [{ every: '1h' }, 'every'],
    ] as const) {
      const answer = await schedulesApi('POST', '/schedules', { ...scheduleBody({ scheduleId: `bad-${field}` }), ...overrides });
      assert.equal(answer.status, 400, JSON.stringify(overrides));
      assert.equal(answer.body.error?.details?.field, field, JSON.stringify(answer.body));
    }
    const outOfRange = await schedulesApi('POST', '/schedules', scheduleBody({ scheduleId: 'bad-range', cron: '99 6 * * *' }));
    assert.equal(outOfRange.status, 400, JSON.stringify(outOfRange.body));
  });

  test('when two tenants use the same schedule id, then they are two schedules: a run, a pause or a delete of one leaves the other as it was', async () => {
    const acmeInput = await submitTickets(ticketsDay(20, 5).bytes, { key: `schedule-acme-input-${Date.now()}`, apiKey: acme.apiKey });
    assert.equal(acmeInput.status, 202, JSON.stringify(acmeInput.body));
    const acmeBody = scheduleBody({ input: { jobId: acmeInput.body.jobId as string }, cron: '0 7 * * *', timezone: 'UTC' });
    const acmeCreated = await schedulesApi<Schedule>('POST', '/schedules', acmeBody, acme.apiKey);
    assert.equal(acmeCreated.status, 201, JSON.stringify(acmeCreated.body));
    try {
      const runsBefore = (await schedulesApi<Schedule>('GET', `/schedules/${scheduleId}`)).body.recentRuns.length;
      assert.equal((await schedulesApi('POST', `/schedules/${scheduleId}/trigger`)).status, 202);
      assert.equal((await schedulesApi('POST', `/schedules/${scheduleId}/pause`, { note: 'demo only' })).status, 200);
      await eventually('demo’s new run', async () => {
        const runs = (await schedulesApi<Schedule>('GET', `/schedules/${scheduleId}`)).body.recentRuns;
        return runs.length > runsBefore ? runs : undefined;
      });
      const acmeSchedule = await schedulesApi<Schedule>('GET', `/schedules/${scheduleId}`, undefined, acme.apiKey);
      assert.equal(acmeSchedule.status, 200);
      assert.deepEqual(acmeSchedule.body.recentRuns, [], 'demo’s trigger started no run of acme’s schedule');
      assert.equal(acmeSchedule.body.state, 'active', 'demo’s pause did not pause acme’s');
      assert.equal(acmeSchedule.body.cron, '0 7 * * *');
      assert.equal(acmeSchedule.body.input.jobId, acmeInput.body.jobId);
      assert.equal((await schedulesApi('POST', `/schedules/${scheduleId}/resume`)).status, 200);
    } finally {
      assert.equal((await schedulesApi('DELETE', `/schedules/${scheduleId}`, undefined, acme.apiKey)).status, 204);
      // acme's upload is a digest job too: let it finish, so no model call of it is in flight for the next test.
      await eventually('acme’s input job settled', async () => {
        const status = (await getJob(acmeInput.body.jobId as string, acme.apiKey)).body.status;
        return status === 'completed' || status === 'failed' || status === 'dead_letter' ? status : undefined;
      }, 120_000);
    }
    assert.equal((await schedulesApi('GET', `/schedules/${scheduleId}`)).status, 200, 'acme’s delete left demo’s schedule');
  });

  test('when a schedule is deleted while a run is in flight, then the run goes on to the end, and the schedule is gone from the API and Temporal', async () => {
    // Let earlier runs settle, so the one slow model call below is the new run's.
    for (const run of (await schedulesApi<Schedule>('GET', `/schedules/${scheduleId}`)).body.recentRuns) {
      await waitForJob(run.jobId, ['completed', 'failed', 'dead_letter'], 120_000);
    }
    await addSimulatorFault({ match: { tool: 'summarise_tickets' }, fault: { kind: 'slow', delayMs: 10_000 }, times: 1 });
    const before = new Set((await schedulesApi<Schedule>('GET', `/schedules/${scheduleId}`)).body.recentRuns.map((run) => run.jobId));
    assert.equal((await schedulesApi('POST', `/schedules/${scheduleId}/trigger`)).status, 202);
    const jobId = await eventually('the new run', async () =>
      (await schedulesApi<Schedule>('GET', `/schedules/${scheduleId}`)).body.recentRuns.map((run) => run.jobId).find((id) => !before.has(id)),
    );
    // The simulator takes the rule when the call arrives, then holds the answer: from here the run is mid-call.
    await eventually('the slow call under way', async () => ((await simulatorFaultRules()).length === 0 ? true : undefined), 120_000);

    const removed = await schedulesApi('DELETE', `/schedules/${scheduleId}`);
    assert.equal(removed.status, 204);
    assert.equal((await getJob(jobId)).body.status, 'processing', 'the run was still going when its schedule was deleted');
    assert.equal((await schedulesApi('GET', `/schedules/${scheduleId}`)).status, 404);
    const client = await temporalClient();
    try {
      await assert.rejects(client.schedule.getHandle(`demo:${scheduleId}`).describe(), ScheduleNotFoundError);
    } finally {
      await client.connection.close();
    }

    const done = await waitForJob(jobId, ['completed', 'failed', 'dead_letter', 'cancelled'], 120_000);
    assert.equal(done.status, 'completed', JSON.stringify(done.error ?? done));
    assert.equal(digestOf(done)?.ticketCount, 300);
  });
});
