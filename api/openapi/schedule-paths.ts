import { bodyRef, type Schema } from './refs';
import { json, responses } from './responses';

const apiKeyOnly = [{ apiKey: [] }];

const scheduleIdParameter: Schema = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The schedule id the tenant chose in `POST /schedules`.',
  schema: { type: 'string' },
};

const noteBody: Schema = { required: false, content: json(bodyRef('ScheduleStateRequest')) };
const scheduleAnswer = (description: string): Schema => ({ description, content: json(bodyRef('Schedule')) });

/** /schedules: Temporal Schedules that start ordinary jobs, visible in the Temporal Web UI and `temporal schedule list`. */
export const schedulePaths: Record<string, Schema> = {
  '/schedules': {
    post: {
      operationId: 'createSchedule',
      summary: 'Schedule a job type on a cron or an interval',
      description:
        'Creates a Temporal Schedule. Each run is an ordinary job (`GET /jobs/{id}`, listed by `GET /jobs`) whose id is `<type>:<tenant>:schedule.<scheduleId>-<scheduled time>`: ' +
        'the same time never runs twice, and a run still going at the next time makes that time skip (no overlap). Runs read the file an earlier job uploaded (`input.jobId`).',
      tags: ['schedules'],
      security: apiKeyOnly,
      requestBody: { required: true, content: json(bodyRef('ScheduleRequest')) },
      responses: responses(
        {
          '201': {
            description: 'Created.',
            headers: { Location: { description: 'The schedule’s URL.', schema: { type: 'string', format: 'uri' } } },
            content: json(bodyRef('Schedule')),
          },
        },
        400,
        401,
        404,
        409,
        413,
        503,
      ),
    },
    get: {
      operationId: 'listSchedules',
      summary: 'List this tenant’s schedules',
      description: 'From Temporal visibility (eventually consistent, usually within a second), by schedule id.',
      tags: ['schedules'],
      security: apiKeyOnly,
      responses: responses({ '200': { description: 'The schedules.', content: json(bodyRef('ScheduleList')) } }, 401, 503),
    },
  },
  '/schedules/{id}': {
    get: {
      operationId: 'getSchedule',
      summary: 'Read a schedule: its state, next times and latest runs',
      tags: ['schedules'],
      security: apiKeyOnly,
      parameters: [scheduleIdParameter],
      responses: responses({ '200': scheduleAnswer('The schedule.') }, 401, 404, 503),
    },
    delete: {
      operationId: 'deleteSchedule',
      summary: 'Delete a schedule',
      description: 'No further runs start; runs already started go on to the end.',
      tags: ['schedules'],
      security: apiKeyOnly,
      parameters: [scheduleIdParameter],
      responses: responses({ '204': { description: 'Deleted.' } }, 401, 404, 503),
    },
  },
  '/schedules/{id}/pause': {
    post: {
      operationId: 'pauseSchedule',
      summary: 'Pause a schedule',
      tags: ['schedules'],
      security: apiKeyOnly,
      parameters: [scheduleIdParameter],
      requestBody: noteBody,
      responses: responses({ '200': scheduleAnswer('The schedule, paused.') }, 400, 401, 404, 413, 503),
    },
  },
  '/schedules/{id}/resume': {
    post: {
      operationId: 'resumeSchedule',
      summary: 'Resume a paused schedule',
      tags: ['schedules'],
      security: apiKeyOnly,
      parameters: [scheduleIdParameter],
      requestBody: noteBody,
      responses: responses({ '200': scheduleAnswer('The schedule, active.') }, 400, 401, 404, 413, 503),
    },
  },
  '/schedules/{id}/trigger': {
    post: {
      operationId: 'triggerSchedule',
      summary: 'Start one run now',
      description: 'Beside the timetable, paused or not. The run appears in `recentRuns` within a second or so; its id carries the trigger time.',
      tags: ['schedules'],
      security: apiKeyOnly,
      parameters: [scheduleIdParameter],
      // Any JSON body is read (and ignored) before the route, so one over the limit is a 413 here too.
      responses: responses({ '202': scheduleAnswer('Accepted: the run is being started.') }, 401, 404, 413, 503),
    },
  },
};
