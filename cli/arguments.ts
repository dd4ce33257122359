import { parseArgs } from 'node:util';
import { JOB_TYPES } from '../common/job-types/registry';
import { PRIORITIES, type Priority } from '../common/task-queues';
import { parseDurationMs } from '../lib/duration';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage:
  slowlane submit <file|folder>… [--type TYPE] [--priority interactive|bulk] [--deadline 6h|ISO-TIME] [--wait]
                  [--timeout 1h] [--callback-url URL] [--json] [--api URL] [--key KEY]
  slowlane status <jobId> [--json] [--api URL] [--key KEY]
  slowlane schedule create|list|show|pause|resume|trigger|delete …   (slowlane schedule --help)

submit   Uploads each PDF, .txt or PNG/JPEG scan (folders: every .pdf/.txt/.png/.jpg inside, recursively). The Idempotency-Key comes
         from the file's content, so running the same command again finds the same jobs instead of making new
         ones: a backfill can be re-run safely after an interruption.
         --type names the job type (${JOB_TYPES.join(', ')}; default invoice). A type that takes JSON reads
         one JSON input per file argument, or from stdin when the argument is -.
         --deadline says when the results are due (a date-time, or a duration from now): a bulk job's model
         calls take the half-price batch lane unless that leaves too little time.
         Durations (--deadline, --timeout) take a unit: 1500ms, 90s, 30m, 6h, 7d, 1h30m; a bare number is refused.
         --wait follows the jobs until each is posted, rejected, failed, expired or waiting for a reviewer.
status   Shows one job.
schedule Runs a job type on a timetable (a Temporal Schedule whose runs are ordinary jobs).

The API and key default to SLOWLANE_API_URL and SLOWLANE_API_KEY (locally: http://127.0.0.1:3000 and the key npm start prints).
Exit codes: 0 all good, 1 a submission or a job failed, 2 usage error, 3 --wait timed out.`;

export const SCHEDULE_USAGE = `Usage:
  slowlane schedule create <file.json|->            [--json] [--api URL] [--key KEY]
  slowlane schedule list                            [--json] [--api URL] [--key KEY]
  slowlane schedule show    <scheduleId>            [--json] [--api URL] [--key KEY]
  slowlane schedule pause   <scheduleId> [--note TEXT | <file.json|->] [--json] [--api URL] [--key KEY]
  slowlane schedule resume  <scheduleId> [--note TEXT | <file.json|->] [--json] [--api URL] [--key KEY]
  slowlane schedule trigger <scheduleId>            [--json] [--api URL] [--key KEY]
  slowlane schedule delete  <scheduleId>            [--api URL] [--key KEY]

create   Sends the JSON body of POST /schedules, read from the file or from stdin (-), e.g.
           {"scheduleId":"nightly","type":"tickets.digest","cron":"0 6 * * *","timezone":"Europe/Berlin",
            "input":{"jobId":"<an earlier tickets.digest job of yours>"}}
         ("every":"6h" instead of "cron"; optional "priority", "callbackUrl", "paused", "note").
list     This tenant's schedules: when they run, their state, the next run and the latest run's job.
show     One schedule: its timetable, input, next times and latest runs (each an ordinary job:
         slowlane status <jobId>).
pause    Stops starting runs until resumed; --note (or a {"note":"…"} body) says why.
resume   Starts runs again at the next time.
trigger  Starts one run now, beside the timetable (paused or not), and prints its job id once the schedule
         lists it (within 15 s); a second trigger is a second run.
delete   No more runs start; runs already started go on to the end.

--json prints the API's answer as it came (trigger: {"schedule": <answer>, "run": {jobId, …} or null}). Exit codes: 0 done, 1 the API refused (its code and message are
printed: invalid_request, not_found, schedule_exists, …), 2 usage error or unreadable input.`;

export const SCHEDULE_ACTIONS = ['create', 'list', 'show', 'pause', 'resume', 'trigger', 'delete'] as const;
export type ScheduleAction = (typeof SCHEDULE_ACTIONS)[number];

interface Connection {
  api?: string;
  key?: string;
}

/** Where a JSON body comes from: a file, or stdin for `-`. */
export type BodySource = { from: 'file'; path: string } | { from: 'stdin' };

export type ScheduleCommand = Connection & { name: 'schedule'; json: boolean } & (
    | { action: 'create'; body: BodySource }
    | { action: 'list' }
    | { action: 'show' | 'trigger' | 'delete'; scheduleId: string }
    | { action: 'pause' | 'resume'; scheduleId: string; note?: string; body?: BodySource }
  );

export type Command =
  | { name: 'help'; topic?: 'schedule' }
  | ScheduleCommand
  | {
      name: 'submit';
      paths: string[];
      type: string;
      priority: Priority;
      wait: boolean;
      timeoutMs: number;
      callbackUrl?: string;
      /** ISO 8601; a duration given on the command line is resolved from now. */
      deadline?: string;
      json: boolean;
      api?: string;
      key?: string;
    }
  | { name: 'status'; jobId: string; json: boolean; api?: string; key?: string };

/**
 * `--timeout` and `--deadline`: lib/duration.ts's units (90s, 30m, 6h, 7d, 1h30m); undefined when it is no duration.
 * A bare number is refused rather than read: the settings read it as milliseconds, a person at a prompt as seconds.
 */
function durationMs(text: string, flag: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) throw new UsageError(`${flag} ${text}: give a unit, e.g. ${trimmed}s, ${trimmed}m or ${trimmed}h`);
  return parseDurationMs(trimmed);
}

/** `--deadline`: a date-time with its offset (as the API takes it), or a duration from now. */
function deadlineOf(text: string, now: number): string {
  const fromNowMs = durationMs(text, '--deadline');
  if (fromNowMs !== undefined) return new Date(now + fromNowMs).toISOString();
  const at = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:\d{2})$/i.test(text) || Number.isNaN(at)) {
    throw new UsageError(`--deadline ${text}: use a date-time with its offset (2026-12-05T08:00:00Z) or a duration from now (6h)`);
  }
  return new Date(at).toISOString();
}

export function parseCommand(argv: string[], now = Date.now()): Command {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      priority: { type: 'string' },
      type: { type: 'string', default: 'invoice' },
      wait: { type: 'boolean', default: false },
      timeout: { type: 'string', default: '1h' },
      'callback-url': { type: 'string' },
      deadline: { type: 'string' },
      json: { type: 'boolean', default: false },
      api: { type: 'string' },
      key: { type: 'string' },
      note: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [name, ...rest] = positionals;
  const connection = { ...(values.api ? { api: values.api } : {}), ...(values.key ? { key: values.key } : {}) };
  if (name === 'schedule') {
    if (values.help || rest.length === 0 || rest[0] === 'help') return { name: 'help', topic: 'schedule' };
    // A submit flag here is a slip (the schedule's body sets its priority and callback URL), not something to ignore.
    const submitFlags = [
      values.priority !== undefined && '--priority',
      values['callback-url'] !== undefined && '--callback-url',
      values.deadline !== undefined && '--deadline',
      values.wait && '--wait',
    ];
    const misplaced = submitFlags.filter((flag): flag is string => typeof flag === 'string');
    if (misplaced.length > 0) throw new UsageError(`${misplaced.join(', ')}: submit flags; a schedule takes them in its JSON body ("priority", "callbackUrl")`);
    return parseScheduleCommand(rest, { json: values.json, ...(values.note !== undefined ? { note: values.note } : {}), ...connection });
  }
  if (values.note !== undefined) throw new UsageError('--note belongs to schedule pause and schedule resume');
  if (values.help || name === undefined || name === 'help') return { name: 'help' };
  if (name === 'submit') {
    if (rest.length === 0) throw new UsageError('submit needs at least one file or folder');
    const priority = (values.priority ?? 'interactive') as Priority;
    if (!PRIORITIES.includes(priority)) throw new UsageError(`--priority must be one of ${PRIORITIES.join(', ')}`);
    if (!(JOB_TYPES as readonly string[]).includes(values.type)) throw new UsageError(`--type must be one of ${JOB_TYPES.join(', ')}`);
    const timeoutMs = durationMs(values.timeout, '--timeout');
    if (timeoutMs === undefined) throw new UsageError(`--timeout ${values.timeout}: use a duration with a unit, e.g. 90s, 30m, 2h, 1h30m`);
    return {
      name: 'submit',
      paths: rest,
      type: values.type,
      priority,
      wait: values.wait,
      timeoutMs,
      ...(values['callback-url'] ? { callbackUrl: values['callback-url'] } : {}),
      ...(values.deadline !== undefined ? { deadline: deadlineOf(values.deadline, now) } : {}),
      json: values.json,
      ...connection,
    };
  }
  if (name === 'status') {
    if (rest.length !== 1 || !rest[0]) throw new UsageError('status needs exactly one job id');
    return { name: 'status', jobId: rest[0], json: values.json, ...connection };
  }
  throw new UsageError(`unknown command "${name}"`);
}

const bodySource = (argument: string): BodySource => (argument === '-' ? { from: 'stdin' } : { from: 'file', path: argument });

/** `schedule <action> …`: each action takes exactly the arguments it needs, so a slip is a usage error, not a call. */
function parseScheduleCommand(args: string[], options: Connection & { json: boolean; note?: string }): ScheduleCommand {
  const [action, ...operands] = args;
  const { note, ...common } = options;
  const base = { name: 'schedule' as const, ...common };
  if (!(SCHEDULE_ACTIONS as readonly string[]).includes(action ?? '')) {
    throw new UsageError(`unknown schedule action "${action}": use one of ${SCHEDULE_ACTIONS.join(', ')}`);
  }
  if (note !== undefined && action !== 'pause' && action !== 'resume') throw new UsageError(`--note belongs to pause and resume, not ${action}`);
  if (action === 'list') {
    if (operands.length > 0) throw new UsageError('schedule list takes no arguments');
    return { ...base, action };
  }
  if (action === 'create') {
    const [source] = operands;
    if (operands.length !== 1 || source === undefined) throw new UsageError('schedule create needs one JSON file, or - to read the body from stdin');
    return { ...base, action, body: bodySource(source) };
  }
  const [scheduleId, source] = operands;
  if (scheduleId === undefined || scheduleId === '') throw new UsageError(`schedule ${action} needs a schedule id`);
  if (action === 'pause' || action === 'resume') {
    if (operands.length > 2) throw new UsageError(`schedule ${action} takes a schedule id and at most one JSON file (or -)`);
    if (source !== undefined && note !== undefined) throw new UsageError('give the note either as --note or in a JSON body, not both');
    return { ...base, action, scheduleId, ...(note !== undefined ? { note } : {}), ...(source !== undefined ? { body: bodySource(source) } : {}) };
  }
  if (operands.length !== 1) throw new UsageError(`schedule ${action} takes exactly one schedule id`);
  return { ...base, action: action as 'show' | 'trigger' | 'delete', scheduleId };
}
