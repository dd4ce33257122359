import { setTimeout as delay } from 'node:timers/promises';
import type { Schedule } from '../common/api-contract/schedule';
import type { ScheduleCommand } from './arguments';
import { readJsonBody } from './json-input';
import { table, type Terminal } from './progress';
import type { SlowlaneClient } from './slowlane-client';

/** "0 6 * * * (Europe/Berlin)" or "every 6h (UTC)": when the schedule starts a run, as the user wrote it. */
export const timetableOf = (schedule: Schedule): string =>
  `${schedule.cron !== undefined ? schedule.cron : `every ${schedule.every ?? '?'}`} (${schedule.timezone})`;

/** `slowlane schedule list`: one row per schedule. */
export function scheduleRows(schedules: Schedule[]): string[] {
  if (schedules.length === 0) return ['No schedules. Create one with `slowlane schedule create <file.json>`.'];
  return table([
    ['SCHEDULE', 'TYPE', 'WHEN', 'STATE', 'NEXT RUN', 'LATEST RUN'],
    ...schedules.map((schedule) => [
      schedule.scheduleId,
      schedule.type,
      timetableOf(schedule),
      schedule.state,
      schedule.nextRunAt[0] ?? '-',
      schedule.recentRuns.at(-1)?.jobId ?? '-',
    ]),
  ]);
}

/** `slowlane schedule show`: the schedule, then its latest runs (each an ordinary job). */
export function scheduleLines(schedule: Schedule): string[] {
  const rows: Array<[string, string | undefined]> = [
    ['schedule', schedule.scheduleId],
    ['type', schedule.type],
    ['when', timetableOf(schedule)],
    ['state', `${schedule.state}${schedule.note ? ` — ${schedule.note}` : ''}`],
    ['input', schedule.input.jobId],
    ['priority', schedule.priority],
    ['created', schedule.createdAt],
    ['next runs', schedule.nextRunAt.length > 0 ? schedule.nextRunAt.join(', ') : '(none while paused)'],
    ['temporal', schedule.links.temporal],
  ];
  const lines = table(rows.filter((row): row is [string, string] => row[1] !== undefined));
  if (schedule.recentRuns.length === 0) return [...lines, '', 'No runs yet.'];
  const runs = table([['SCHEDULED', 'STARTED', 'JOB'], ...schedule.recentRuns.map((run) => [run.scheduledAt, run.startedAt, run.jobId])]);
  return [...lines, '', ...runs];
}

/** A triggered run shows under the schedule's runs within a second or so; past this the CLI stops looking. */
const RUN_SHOWS_WITHIN_MS = 15_000;
const RUN_POLL_MS = 500;

type Run = Schedule['recentRuns'][number];

/**
 * The run a trigger started: the first one the schedule lists that its answer to the trigger (the schedule as it
 * was just before) did not. Undefined when none shows in time; the run still goes on.
 */
async function newRunOf(client: SlowlaneClient, before: Schedule, withinMs: number): Promise<Run | undefined> {
  const known = new Set(before.recentRuns.map((run) => run.jobId));
  const deadline = Date.now() + withinMs;
  for (;;) {
    const { recentRuns } = await client.getSchedule(before.scheduleId);
    const fresh = recentRuns.find((run) => !known.has(run.jobId));
    if (fresh || Date.now() >= deadline) return fresh;
    await delay(RUN_POLL_MS);
  }
}

/** The body of pause or resume: a `--note`, a JSON file or stdin, or none (the API writes its own note). */
async function stateBody(command: Extract<ScheduleCommand, { action: 'pause' | 'resume' }>): Promise<unknown> {
  if (command.body) return readJsonBody(command.body);
  return command.note !== undefined ? { note: command.note } : {};
}

/** `slowlane schedule …`: one API call, its answer printed. Returns the exit code; API errors propagate to main. */
export async function scheduleCommand(client: SlowlaneClient, command: ScheduleCommand, terminal: Terminal): Promise<number> {
  const print = (schedule: Schedule, headline: string) => {
    if (command.json) terminal.out(JSON.stringify(schedule, null, 2));
    else for (const line of [headline, '', ...scheduleLines(schedule)]) terminal.out(line);
  };
  switch (command.action) {
    case 'create': {
      const schedule = await client.createSchedule(await readJsonBody(command.body));
      print(schedule, `created schedule ${schedule.scheduleId}`);
      return 0;
    }
    case 'list': {
      const { schedules } = await client.listSchedules();
      if (command.json) terminal.out(JSON.stringify({ schedules }, null, 2));
      else for (const line of scheduleRows(schedules)) terminal.out(line);
      return 0;
    }
    case 'show': {
      const schedule = await client.getSchedule(command.scheduleId);
      if (command.json) terminal.out(JSON.stringify(schedule, null, 2));
      else for (const line of scheduleLines(schedule)) terminal.out(line);
      return 0;
    }
    case 'pause':
    case 'resume': {
      const schedule = await client.setScheduleState(command.scheduleId, command.action, await stateBody(command));
      print(schedule, `${command.action === 'pause' ? 'paused' : 'resumed'} schedule ${schedule.scheduleId}`);
      return 0;
    }
    case 'trigger': {
      const schedule = await client.triggerSchedule(command.scheduleId);
      const run = await newRunOf(client, schedule, RUN_SHOWS_WITHIN_MS);
      if (command.json) terminal.out(JSON.stringify({ schedule, run: run ?? null }, null, 2));
      else if (run) terminal.out(`triggered schedule ${schedule.scheduleId}: job ${run.jobId} (slowlane status ${run.jobId})`);
      else terminal.out(`triggered schedule ${schedule.scheduleId}: the run has not shown yet; \`slowlane schedule show ${schedule.scheduleId}\` lists it with its job id`);
      return 0;
    }
    case 'delete': {
      await client.deleteSchedule(command.scheduleId);
      if (command.json) terminal.out(JSON.stringify({ scheduleId: command.scheduleId, deleted: true }));
      else terminal.out(`deleted schedule ${command.scheduleId}; runs already started go on to the end`);
      return 0;
    }
  }
}
