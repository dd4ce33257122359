import { type Static, Type } from '@sinclair/typebox';
import { JobError } from './job-parts';
import { closed, dateTime, ref } from './schema-kit';
import { JobStatus, JobStep } from './vocabulary';

/** The `data` of one Server-Sent Event on `GET /jobs/:id/events`. */
export const JobEvent = closed({
  jobId: Type.String(),
  seq: Type.Optional(Type.Integer({ minimum: 1, description: 'Also the SSE event id; send it back as Last-Event-ID to resume.' })),
  status: ref('JobStatus', JobStatus),
  step: Type.Optional(ref('JobStep', JobStep)),
  at: dateTime(),
  error: Type.Optional(ref('JobError', JobError)),
  detailed: Type.Optional(
    Type.Literal(false, { description: 'Present (false) on an event without an id: no worker answered, this is the server-side status.' }),
  ),
});
export type JobEvent = Static<typeof JobEvent>;
