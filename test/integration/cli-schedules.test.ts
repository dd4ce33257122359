import assert from '../support/assert';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Schedule, ScheduleList } from '../../common/api-contract/schedule';
import { acme, waitForJob } from '../support/api-client';
import { slowlane } from '../support/cli';
import { eventually, schedulesApi, submitTickets, ticketsDay } from '../support/tickets';

const scheduleId = `cli-${Date.now()}`;
let inputJobId = '';
let folder = '';

const body = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({ scheduleId, type: 'tickets.digest', cron: '0 6 * * *', timezone: 'UTC', input: { jobId: inputJobId }, ...overrides });

const parsed = <T>(stdout: string): T => JSON.parse(stdout) as T;

describe('the client CLI: npx slowlane schedule', () => {
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'slowlane-cli-schedule-'));
    const submitted = await submitTickets(ticketsDay(40, 23).bytes, { key: `cli-schedule-input-${Date.now()}` });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    inputJobId = submitted.body.jobId as string;
    await waitForJob(inputJobId, ['completed'], 120_000);
  });

  afterAll(async () => {
    await schedulesApi('DELETE', `/schedules/${scheduleId}`);
  });

  test('when schedule is asked for help, then every action is explained and the exit code is 0', async () => {
    const run = await slowlane(['schedule', '--help']);
    assert.equal(run.code, 0, run.stderr);
    for (const action of ['create', 'list', 'show', 'pause', 'resume', 'trigger', 'delete']) assert.match(run.stdout, new RegExp(`^${action}\\s`, 'm'));
  });

  test('when a schedule is created from stdin, then the API holds it; the same body from a file is a 409 named on stderr', async () => {
    const created = await slowlane(['schedule', 'create', '-', '--json'], { stdin: body() });
    assert.equal(created.code, 0, created.stderr);
    const schedule = parsed<Schedule>(created.stdout);
    assert.equal(schedule.scheduleId, scheduleId);
    assert.equal((await schedulesApi<Schedule>('GET', `/schedules/${scheduleId}`)).body.cron, '0 6 * * *');

    const file = join(folder, 'nightly.json');
    await writeFile(file, body());
    const again = await slowlane(['schedule', 'create', file]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, new RegExp(`^schedule_exists: this tenant already has a schedule "${scheduleId}"`, 'm'));
  });

  test('when schedules are listed and one is shown, then the table and the details come from the API', async () => {
    const listed = await eventually('the schedule in the CLI list', async () => {
      const run = await slowlane(['schedule', 'list']);
      assert.equal(run.code, 0, run.stderr);
      return run.stdout.split('\n').find((line) => line.startsWith(`${scheduleId} `));
    });
    assert.match(listed, new RegExp(`^${scheduleId}\\s+tickets\\.digest\\s+0 6 \\* \\* \\* \\(UTC\\)\\s+active\\s+\\d{4}-\\d\\d-\\d\\dT06:00:00\\.000Z\\s+-$`));
    const asJson = parsed<ScheduleList>((await slowlane(['schedule', 'list', '--json'])).stdout);
    assert.ok(asJson.schedules.some((schedule) => schedule.scheduleId === scheduleId));

    const shown = await slowlane(['schedule', 'show', scheduleId]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`^input\\s+${inputJobId.replace(/\./g, '\\.')}$`, 'm'));
    assert.match(shown.stdout, /^priority\s+bulk$/m);
    assert.match(shown.stdout, /^No runs yet\.$/m);
  });

  test('when a schedule is paused with --note and resumed with a JSON body, then its state follows', async () => {
    const paused = await slowlane(['schedule', 'pause', scheduleId, '--note', 'holiday']);
    assert.equal(paused.code, 0, paused.stderr);
    assert.match(paused.stdout, new RegExp(`^paused schedule ${scheduleId}$`, 'm'));
    assert.match(paused.stdout, /^state\s+paused — holiday$/m);
    assert.equal((await schedulesApi<Schedule>('GET', `/schedules/${scheduleId}`)).body.state, 'paused');

    const resumed = await slowlane(['schedule', 'resume', scheduleId, '-', '--json'], { stdin: '{"note":"back at work"}' });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(parsed<Schedule>(resumed.stdout).state, 'active');
    assert.equal(parsed<Schedule>(resumed.stdout).note, 'back at work');
  });

  test('when a schedule is triggered, then it prints the new run’s job id, which show lists and status reads', async () => {
    const triggered = await slowlane(['schedule', 'trigger', scheduleId]);
    assert.equal(triggered.code, 0, triggered.stderr);
    const jobId = new RegExp(`^triggered schedule ${scheduleId}: job (\\S+) `, 'm').exec(triggered.stdout)?.[1];
    assert.ok(jobId, triggered.stdout);
    assert.match(jobId, new RegExp(`^tickets\\.digest:demo:schedule\\.${scheduleId}-`));
    const shown = parsed<Schedule>((await slowlane(['schedule', 'show', scheduleId, '--json'])).stdout);
    assert.deepEqual(shown.recentRuns.map((run) => run.jobId), [jobId]);

    const second = parsed<{ run: { jobId: string } | null }>((await slowlane(['schedule', 'trigger', scheduleId, '--json'])).stdout);
    assert.ok(second.run, 'the second trigger names its run too');
    assert.notEqual(second.run.jobId, jobId, 'a second trigger is a second run');
    const status = await slowlane(['status', jobId]);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`^job\\s+${jobId.replace(/\./g, '\\.')}$`, 'm'));
  });

  test('when the API refuses, then the exit code is 1 and stderr has its code, words and field; bad input is a usage error', async () => {
    const badCron = await slowlane(['schedule', 'create', '-'], { stdin: body({ scheduleId: `${scheduleId}-bad`, cron: '0 6 * *' }) });
    assert.equal(badCron.code, 1);
    assert.match(badCron.stderr, /^invalid_request: .*cron.*\(field: cron\)$/m);

    const notJson = await slowlane(['schedule', 'create', '-'], { stdin: '{"scheduleId":' });
    assert.equal(notJson.code, 2);
    assert.match(notJson.stderr, /^stdin: not JSON/m);
    assert.doesNotMatch(notJson.stderr, /Usage:/, 'a typo in the body is named alone, not buried under the usage');

    const missingFile = await slowlane(['schedule', 'create', join(folder, 'missing.json')]);
    assert.equal(missingFile.code, 2);
    assert.match(missingFile.stderr, /missing\.json: no such file/);

    const foreign = await slowlane(['schedule', 'show', scheduleId], { apiKey: acme.apiKey });
    assert.equal(foreign.code, 1, 'another tenant’s key sees no such schedule');
    assert.match(foreign.stderr, /^not_found: /m);
  });

  test('when a schedule is deleted, then it is gone, and deleting it again is a not_found', async () => {
    const removed = await slowlane(['schedule', 'delete', scheduleId]);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /runs already started go on/);
    assert.equal((await schedulesApi('GET', `/schedules/${scheduleId}`)).status, 404);
    const again = await slowlane(['schedule', 'delete', scheduleId]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^not_found: /m);
  });
});
