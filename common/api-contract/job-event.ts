import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { JobError, JobProgress } from './job-parts';
import { closed, COMPONENTS_PATH, dateTime, ref } from './schema-kit';
import { JobStatus, JobStep } from './vocabulary';

/** The `data` of one Server-Sent Event on `GET /jobs/:id/events`. */
export const JobEvent = closed({
  jobId: Type.String(),
  seq: Type.Optional(
    Type.Integer({ minimum: 1, description: 'Also the SSE event id; send it back as Last-Event-ID to resume.' }),
  ),
  status: ref('JobStatus', JobStatus),
  step: Type.Optional(ref('JobStep', JobStep)),
  at: dateTime(),
  error: Type.Optional(ref('JobError', JobError)),
  detailed: Type.Optional(
    Type.Literal(false, {
      description: 'Present (false) on an event without an id: no worker answered, this is the server-side status.',
    }),
  ),
});
export type JobEvent = Static<typeof JobEvent>;

/** The `data` of a `progress` event: the job's progress as it is now (a later one supersedes it). */
export const JobProgressEvent = closed({
  jobId: Type.String(),
  progress: ref('JobProgress', JobProgress),
});
export type JobProgressEvent = Static<typeof JobProgressEvent>;

/** The `data` of the `end` event that closes the stream once the job is finished. */
export const JobStreamEnd = closed({ jobId: Type.String(), status: ref('JobStatus', JobStatus) });
export type JobStreamEnd = Static<typeof JobStreamEnd>;

/** A `data:` field holding one API body as JSON text (JSON Schema's content keywords say which); named like ref(). */
function jsonText<T extends TSchema>(name: string, _schema: T) {
  return Type.String({ contentMediaType: 'application/json', contentSchema: { $ref: `${COMPONENTS_PATH}${name}` } });
}

const eventId = () =>
  Type.String({ pattern: '^[0-9]+$', description: 'The last event id seen (a status or progress event’s seq).' });
const retry = () => Type.Integer({ minimum: 0 });

/**
 * One event of the stream as an SSE client reads it (`event`, `id`, `data`, `retry`): the shape OpenAPI 3.2 gives
 * each item of `text/event-stream`, and what outside clients such as Schemathesis check every event against.
 */
export const JobStreamEvent = Type.Union([
  closed({
    event: Type.Literal('status'),
    id: Type.Optional(eventId()),
    data: jsonText('JobEvent', JobEvent),
    retry: Type.Optional(retry()),
  }),
  closed({
    event: Type.Literal('progress'),
    id: Type.Optional(eventId()),
    data: jsonText('JobProgressEvent', JobProgressEvent),
    retry: Type.Optional(retry()),
  }),
  closed({
    event: Type.Literal('end'),
    id: Type.Optional(eventId()),
    data: jsonText('JobStreamEnd', JobStreamEnd),
    retry: Type.Optional(retry()),
  }),
]);
