import assert from '../support/assert';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import type { Schedule } from '../../common/api-contract/schedule';
import { parseCommand, SCHEDULE_ACTIONS, SCHEDULE_USAGE, UsageError } from '../../cli/arguments';
import { readJsonBody } from '../../cli/json-input';
import { scheduleLines, scheduleRows } from '../../cli/schedule-command';

const nightly: Schedule = {
  scheduleId: 'nightly',
  type: 'tickets.digest',
  cron: '0 6 * * *',
  timezone: 'Europe/Berlin',
  input: { jobId: 'tickets.digest:demo:day-1' },
  priority: 'bulk',
  state: 'active',
  createdAt: '2026-12-03T10:00:00.000Z',
  nextRunAt: ['2026-12-04T05:00:00.000Z', '2026-12-05T05:00:00.000Z'],
  recentRuns: [
    { scheduledAt: '2026-12-02T05:00:00.000Z', startedAt: '2026-12-02T05:00:01.000Z', jobId: 'tickets.digest:demo:schedule.nightly-2026-12-02T05:00:00Z' },
    { scheduledAt: '2026-12-03T05:00:00.000Z', startedAt: '2026-12-03T05:00:01.000Z', jobId: 'tickets.digest:demo:schedule.nightly-2026-12-03T05:00:00Z' },
  ],
  links: { self: 'http://127.0.0.1:3000/schedules/nightly', temporal: 'http://127.0.0.1:8233/namespaces/default/schedules/demo%3Anightly' },
};

const hourly: Schedule = { ...nightly, scheduleId: 'hourly', every: '1h', timezone: 'UTC', state: 'paused', note: 'holiday', nextRunAt: [], recentRuns: [] };
delete hourly.cron;

describe('slowlane schedule: arguments', () => {
  test('when each action is given what it needs, then the command reads as the user meant', () => {
    assert.deepEqual(parseCommand(['schedule', 'create', 'nightly.json']), { name: 'schedule', action: 'create', json: false, body: { from: 'file', path: 'nightly.json' } });
    assert.deepEqual(parseCommand(['schedule', 'create', '-', '--json']), { name: 'schedule', action: 'create', json: true, body: { from: 'stdin' } });
    assert.deepEqual(parseCommand(['schedule', 'list', '--api', 'http://x', '--key', 'k']), { name: 'schedule', action: 'list', json: false, api: 'http://x', key: 'k' });
    for (const action of ['show', 'trigger', 'delete'] as const) {
      assert.deepEqual(parseCommand(['schedule', action, 'nightly']), { name: 'schedule', action, json: false, scheduleId: 'nightly' });
    }
    assert.deepEqual(parseCommand(['schedule', 'pause', 'nightly', '--note', 'holiday']), { name: 'schedule', action: 'pause', json: false, scheduleId: 'nightly', note: 'holiday' });
    assert.deepEqual(parseCommand(['schedule', 'resume', 'nightly', '-']), { name: 'schedule', action: 'resume', json: false, scheduleId: 'nightly', body: { from: 'stdin' } });
    assert.deepEqual(parseCommand(['schedule', 'resume', 'nightly']), { name: 'schedule', action: 'resume', json: false, scheduleId: 'nightly' });
  });

  test('when schedule is asked for help or given no action, then the schedule usage is the answer, naming every action', () => {
    assert.deepEqual(parseCommand(['schedule']), { name: 'help', topic: 'schedule' });
    assert.deepEqual(parseCommand(['schedule', '--help']), { name: 'help', topic: 'schedule' });
    assert.deepEqual(parseCommand(['schedule', 'create', '-h']), { name: 'help', topic: 'schedule' });
    for (const action of SCHEDULE_ACTIONS) assert.match(SCHEDULE_USAGE, new RegExp(`slowlane schedule ${action}\\b`));
  });

  test('when a schedule command line is wrong, then a usage error says what is wrong', () => {
    const wrong: Array<[string[], RegExp]> = [
      [['schedule', 'rename', 'x'], /unknown schedule action "rename": use one of create, list, show, pause, resume, trigger, delete/],
      [['schedule', 'create'], /create needs one JSON file, or -/],
      [['schedule', 'create', 'a.json', 'b.json'], /create needs one JSON file/],
      [['schedule', 'list', 'nightly'], /list takes no arguments/],
      [['schedule', 'show'], /show needs a schedule id/],
      [['schedule', 'delete', 'a', 'b'], /delete takes exactly one schedule id/],
      [['schedule', 'pause', 'nightly', 'note.json', '--note', 'x'], /either as --note or in a JSON body/],
      [['schedule', 'trigger', 'nightly', '--note', 'x'], /--note belongs to pause and resume/],
      [['status', 'job', '--note', 'x'], /--note belongs to schedule pause/],
      [['schedule', 'create', 'a.json', '--priority', 'bulk', '--wait'], /--priority, --wait: submit flags; a schedule takes them in its JSON body/],
    ];
    for (const [argv, message] of wrong) assert.throws(() => parseCommand(argv), (error: unknown) => error instanceof UsageError && message.test(error.message), argv.join(' '));
  });
});

describe('slowlane schedule: a JSON body from a file', () => {
  test('when the file is missing, empty or not JSON, then a usage error names the file and the problem', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'slowlane-schedule-'));
    await writeFile(join(folder, 'empty.json'), '  \n');
    await writeFile(join(folder, 'typo.json'), '{"scheduleId": "nightly",}');
    await writeFile(join(folder, 'good.json'), '{"scheduleId":"nightly","cron":"0 6 * * *"}');
    await assert.rejects(readJsonBody({ from: 'file', path: join(folder, 'missing.json') }), /missing\.json: no such file/);
    await assert.rejects(readJsonBody({ from: 'file', path: join(folder, 'empty.json') }), /empty\.json: empty; expected a JSON object/);
    await assert.rejects(readJsonBody({ from: 'file', path: join(folder, 'typo.json') }), /typo\.json: not JSON/);
    assert.deepEqual(await readJsonBody({ from: 'file', path: join(folder, 'good.json') }), { scheduleId: 'nightly', cron: '0 6 * * *' });
  });
});

describe('slowlane schedule: what it prints', () => {
  test('when schedules are listed, then each row shows its timetable, state, next run and latest run', () => {
    const [header, first, second] = scheduleRows([nightly, hourly]);
    assert.match(header ?? '', /^SCHEDULE\s+TYPE\s+WHEN\s+STATE\s+NEXT RUN\s+LATEST RUN$/);
    assert.match(first ?? '', /^nightly\s+tickets\.digest\s+0 6 \* \* \* \(Europe\/Berlin\)\s+active\s+2026-12-04T05:00:00\.000Z\s+tickets\.digest:demo:schedule\.nightly-2026-12-03T05:00:00Z$/);
    assert.match(second ?? '', /^hourly\s+tickets\.digest\s+every 1h \(UTC\)\s+paused\s+-\s+-$/);
    assert.match(scheduleRows([]).join('\n'), /No schedules/);
  });

  test('when a schedule is shown, then its state, note, next times and every run with its job id are there', () => {
    const shown = scheduleLines(nightly).join('\n');
    assert.match(shown, /^when\s+0 6 \* \* \* \(Europe\/Berlin\)$/m);
    assert.match(shown, /^input\s+tickets\.digest:demo:day-1$/m);
    assert.match(shown, /^next runs\s+2026-12-04T05:00:00\.000Z, 2026-12-05T05:00:00\.000Z$/m);
    for (const run of nightly.recentRuns) assert.match(shown, new RegExp(`^${run.scheduledAt.replace(/\./g, '\\.')}\\s+\\S+\\s+${run.jobId.replace(/\./g, '\\.')}$`, 'm'));

    const paused = scheduleLines(hourly).join('\n');
    assert.match(paused, /^state\s+paused — holiday$/m);
    assert.match(paused, /^next runs\s+\(none while paused\)$/m);
    assert.match(paused, /^No runs yet\.$/m);
  });
});
