import { type Static, Type } from '@sinclair/typebox';
import { TICKETS_DIGEST } from '../job-types/tickets-digest/definition';
import { Links } from './job-parts';
import { closed, dateTime, ref, stringEnum } from './schema-kit';
import { Priority } from './vocabulary';

/** Job types a schedule may start: those whose input can be fixed once and read again at every run. */
export const SCHEDULABLE_JOB_TYPES = [TICKETS_DIGEST] as const;
export const SchedulableJobType = stringEnum(SCHEDULABLE_JOB_TYPES);

export const SCHEDULE_ID_PATTERN = '^[A-Za-z0-9._~-]{1,64}$';
export const SCHEDULE_STATES = ['active', 'paused'] as const;
/** One cron field: numbers, names (JAN, MON), `*`, `?`, lists, ranges and steps; the Temporal server judges the values. */
export const CRON_FIELD = '(?:\\*|\\?|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:/[0-9]+)?(?:,(?:\\*|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:/[0-9]+)?)*';
/** Five fields apart by spaces or tabs, or a macro: what the API takes as a cron before the server reads its values. */
export const CRON_PATTERN = `^[ \\t]*(?:@(?:yearly|annually|monthly|weekly|daily|hourly)|${CRON_FIELD}(?:[ \\t]+${CRON_FIELD}){4})[ \\t]*$`;
/** The IANA zones of the runtime's tz database (the one the Temporal server reads too), `UTC` among them. */
export const TIME_ZONES: readonly string[] = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

/** The body of `POST /schedules`: what to run, when, and on which input. Exactly one of `cron` and `every`. */
export const ScheduleRequest = closed(
  {
    scheduleId: Type.String({
      pattern: SCHEDULE_ID_PATTERN,
      description:
        'Names the schedule within the tenant: 1-64 of `A-Z a-z 0-9 . _ ~ -`. A second schedule with the same id is a 409.',
    }),
    type: ref('SchedulableJobType', SchedulableJobType),
    cron: Type.Optional(
      Type.String({
        pattern: CRON_PATTERN,
        maxLength: 100,
        description:
          'Five fields, `minute hour day-of-month month day-of-week` (e.g. `0 6 * * *`, 06:00 every day), or `@daily`, `@hourly`, `@weekly`, `@monthly`.',
      }),
    ),
    every: Type.Optional(
      Type.String({
        // At most 366 days in every unit (99999m is 69 days), spelled out so the document states the bound.
        pattern: '^(?:[1-9][0-9]{0,4}m|(?:[1-9][0-9]{0,2}|[1-7][0-9]{3}|8[0-6][0-9]{2}|87[0-7][0-9]|878[0-4])h|(?:[1-9][0-9]?|[12][0-9]{2}|3[0-5][0-9]|36[0-6])d)$',
        description: 'An interval instead of a cron: `30m`, `6h`, `1d` (at least a minute, at most 366 days).',
      }),
    ),
    timezone: Type.Optional(
      Type.Unsafe<string>({
        type: 'string',
        enum: TIME_ZONES,
        description: 'The IANA time zone the cron is read in (e.g. `Europe/Berlin`); `UTC` when absent.',
      }),
    ),
    input: closed(
      {
        jobId: Type.String({
          minLength: 1,
          maxLength: 300,
          description: 'An earlier job of this tenant and type whose uploaded file every run reads.',
        }),
      },
      { description: 'The input every run gets: the file an earlier job uploaded (upload it once with `POST /jobs`).' },
    ),
    priority: Type.Optional(
      ref('Priority', Priority, {
        description: 'The runs’ priority; the job type’s default (`bulk` for a digest) when absent.',
      }),
    ),
    callbackUrl: Type.Optional(
      Type.String({ format: 'uri', description: 'Where each run’s webhooks go; the tenant’s default when absent.' }),
    ),
    paused: Type.Optional(Type.Boolean({ description: 'Create it paused.' })),
    note: Type.Optional(Type.String({ maxLength: 500 })),
  },
  // Both or neither matches neither or both alternatives: the document says what the route refuses.
  { oneOf: [Type.Object({ cron: Type.Unknown() }), Type.Object({ every: Type.Unknown() })] },
);
export type ScheduleRequest = Static<typeof ScheduleRequest>;

/** A schedule as `GET /schedules/{id}` shows it: the request as given, its state and its runs. */
export const Schedule = closed({
  scheduleId: Type.String(),
  type: ref('SchedulableJobType', SchedulableJobType),
  cron: Type.Optional(Type.String()),
  every: Type.Optional(Type.String()),
  timezone: Type.String(),
  input: closed({ jobId: Type.String() }),
  priority: ref('Priority', Priority),
  note: Type.Optional(Type.String()),
  state: stringEnum(SCHEDULE_STATES),
  createdAt: Type.Optional(dateTime()),
  nextRunAt: Type.Array(dateTime(), { description: 'The next few times it will start a job (none while paused).' }),
  recentRuns: Type.Array(
    closed({
      scheduledAt: dateTime(),
      startedAt: dateTime(),
      jobId: Type.String({
        description:
          'An ordinary job: `GET /jobs/{jobId}`. Its id ends in the scheduled time, so a time never runs twice.',
      }),
    }),
    { description: 'The latest runs, oldest first.' },
  ),
  links: ref('Links', Links),
});
export type Schedule = Static<typeof Schedule>;

export const ScheduleList = closed({ schedules: Type.Array(ref('Schedule', Schedule)) });
export type ScheduleList = Static<typeof ScheduleList>;

/** `POST /schedules/{id}/pause` and `/resume` may say why; the note shows on the schedule and in the Web UI. */
export const ScheduleStateRequest = closed({ note: Type.Optional(Type.String({ maxLength: 500 })) });
export type ScheduleStateRequest = Static<typeof ScheduleStateRequest>;
