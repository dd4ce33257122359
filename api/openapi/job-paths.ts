import { ListJobsQuery } from '../../common/api-contract/job-list';
import { bodyRef, queryParameters, type Schema } from './refs';
import { jobIdParameter, json, responses, retryAfterHeader } from './responses';

const apiKeyOnly = [{ apiKey: [] }];
const apiKeyOrReviewer = [{ apiKey: [] }, { reviewerToken: [] }];
const lastEventIdText = 'The `seq` of the last event seen; anything else (not a positive whole number) reads the stream from the start.';

/** /jobs and everything under it: submit, list, read, stream, download, review. */
export const jobPaths: Record<string, Schema> = {
  '/jobs': {
    post: {
      operationId: 'submitJob',
      summary: 'Submit a job: upload a file, or send a JSON input',
      description:
        'A type that takes a file (`FileJobType`, e.g. `invoice`) is a multipart form; the file is streamed to object storage. ' +
        'A type that takes JSON (e.g. `order.score`) is a JSON body `{ "type", "input", "priority"?, "callbackUrl"? }` whose `input` is the type’s `<Type>Input`. ' +
        'Starts the job and answers in milliseconds, never waits for the model. ' +
        'The same Idempotency-Key with the same file or input returns the same job (`Idempotent-Replayed: true`).',
      tags: ['jobs'],
      security: apiKeyOnly,
      parameters: [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Names the job: 1-128 of `A-Z a-z 0-9 . _ ~ -`. Without it every request is a new job.',
          schema: { type: 'string', pattern: '^[A-Za-z0-9._~-]{1,128}$' },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': { schema: bodyRef('SubmitJobForm') },
          'application/json': { schema: bodyRef('SubmitJobRequest') },
        },
      },
      responses: responses(
        {
          '202': {
            description: 'Accepted: the job exists and runs.',
            headers: {
              Location: { description: 'The job’s URL.', schema: { type: 'string', format: 'uri' } },
              'Idempotent-Replayed': { description: '`true` when the key named an existing job.', schema: { type: 'string', enum: ['true', 'false'] } },
            },
            content: json(bodyRef('Submission')),
          },
        },
        400,
        401,
        409,
        413,
        415,
        429,
        503,
      ),
    },
    get: {
      operationId: 'listJobs',
      summary: 'List jobs',
      description:
        'Every type’s jobs, or one type’s with `?type=`, from Temporal visibility (eventually consistent, usually within a second). The reviewer queue is `?status=awaiting_review`.',
      tags: ['jobs'],
      security: apiKeyOrReviewer,
      parameters: queryParameters(ListJobsQuery),
      responses: responses({ '200': { description: 'A page of jobs, newest first.', content: json(bodyRef('JobList')) } }, 400, 401, 404, 503),
    },
  },
  '/jobs/{id}': {
    get: {
      operationId: 'getJob',
      summary: 'Read a job',
      description:
        'Answers even while every worker is down (then `detailed: false`). Until the job is finished the answer carries `Retry-After`: poll no faster. ' +
        'It is 2 seconds while the job is `queued` or `processing`, and 60 while it waits for a person (`awaiting_review`, `dead_letter`); a finished job has none.',
      tags: ['jobs'],
      security: apiKeyOrReviewer,
      parameters: [jobIdParameter],
      responses: responses(
        { '200': { description: 'The job.', headers: { 'Retry-After': retryAfterHeader }, content: json(bodyRef('Job')) } },
        401,
        404,
        503,
      ),
    },
    delete: {
      operationId: 'eraseJob',
      summary: 'Erase a job and everything it left behind',
      description:
        'Cancels the job if it runs (and waits a few seconds for it to close), then deletes every object it wrote to S3 (upload, extracted text, chunks and vectors, batch-lane requests and answers, results) and every workflow execution of it and of its children from Temporal. ' +
        'Objects named by the upload’s content that another job or schedule of the tenant still reads stay until the last of them is erased (`kept.sharedObjects`). The ledger’s posted entry stays: it is a record of accounts. ' +
        'Afterwards the job is unknown: `GET /jobs/{id}` and a second `DELETE` answer 404, as for any job id this tenant does not have (another tenant’s job answers 404 too). ' +
        'A call job’s transcripts at the speech provider are deleted too (503 `speech_provider_unavailable` while the provider fails to). ' +
        'An erasure that fails part-way (5xx) is finished by sending it again. Needs the tenant’s API key; a reviewer cannot erase.',
      tags: ['jobs'],
      security: apiKeyOnly,
      parameters: [
        jobIdParameter,
        { name: 'X-Request-Id', in: 'header', required: false, description: 'Recorded with the erasure in the logs; a fresh id when absent or not a plain token.', schema: { type: 'string' } },
      ],
      responses: responses(
        {
          '200': {
            description: 'Erased: how many objects and executions were deleted.',
            headers: { 'X-Request-Id': { description: 'The id the erasure was logged under.', schema: { type: 'string' } } },
            content: json(bodyRef('JobErasure')),
          },
        },
        401,
        404,
        503,
      ),
    },
  },
  '/jobs/{id}/cancel': {
    post: {
      operationId: 'cancelJob',
      summary: 'Cancel a job that has not finished',
      description:
        'Any type, any unfinished status (queued, processing, awaiting review, dead letter). A running step learns of the cancel at its next heartbeat and stops; nothing is posted or delivered for the job after it, except its `job.cancelled` webhook. ' +
        '200 with the job once it is `cancelled` (also for a job that already was: cancelling is idempotent); 202 while it is still stopping (follow it on SSE or `GET /jobs/{id}`). ' +
        'A cancel that arrives while an invoice is being posted to the ledger is too late: the job ends `posted`. A finished job answers 409 `job_finished` with `details.status`.',
      tags: ['jobs'],
      security: apiKeyOnly,
      parameters: [jobIdParameter],
      responses: responses(
        {
          '200': { description: 'The job, closed: `cancelled` (or, if the cancel came too late, how it ended).', content: json(bodyRef('Job')) },
          '202': { description: 'Cancel requested; the job is still stopping.', content: json(bodyRef('Job')) },
        },
        401,
        404,
        409,
        503,
      ),
    },
  },
  '/jobs/{id}/events': {
    get: {
      operationId: 'streamJobEvents',
      summary: 'Stream a job’s status changes and progress (SSE)',
      description:
        'Server-Sent Events. Each status change is an `event: status` with `id: <seq>` and a JobEvent as `data`; after the terminal status an `event: end` with a JobStreamEnd as `data` follows and the stream closes. ' +
        'A job that fans out (document) also sends `event: progress` with a JobProgressEvent as `data` as its map advances; its id is in the same numbering, and a progress superseded before it was sent is skipped (only the latest counts). ' +
        'Reconnect with `Last-Event-ID` (or `?lastEventId=`) to get only what you missed; a reconnect after the end answers 204. ' +
        'While no worker answers, the server-side status is sent as an event without an id (`detailed: false`).',
      tags: ['jobs'],
      security: apiKeyOrReviewer,
      parameters: [
        jobIdParameter,
        // Browsers send back whatever id they saw last, so an id that is not a seq is not an error: the stream starts over.
        { name: 'Last-Event-ID', in: 'header', required: false, description: lastEventIdText, schema: { type: 'string' } },
        { name: 'lastEventId', in: 'query', required: false, description: lastEventIdText, schema: { type: 'string' } },
      ],
      responses: responses(
        {
          '200': {
            description: 'An event stream.',
            content: {
              'text/event-stream': {
                // Each event, as OpenAPI 3.2's itemSchema would say; before 3.2 `schema` of an event stream describes one event.
                schema: bodyRef('JobStreamEvent'),
              },
            },
          },
          '204': { description: 'The job is finished and the client has seen every event: do not reconnect.' },
        },
        401,
        404,
        429,
        503,
      ),
    },
  },
  '/jobs/{id}/document': {
    get: {
      operationId: 'getJobDocument',
      summary: 'Download the uploaded document',
      description:
        'What the job was given. A file job’s file as uploaded (PDF, text, a PNG/JPEG scan, or a call’s recording), streamed from object storage; the reviewer page shows it beside the fields. ' +
        'A JSON-input job’s input (`JobInput`) as JSON, read from the job, so a 503 while no worker answers for it.',
      tags: ['jobs'],
      security: apiKeyOrReviewer,
      parameters: [jobIdParameter],
      responses: responses(
        {
          '200': {
            description: 'The document.',
            content: {
              'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
              'text/plain': { schema: { type: 'string' } },
              'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
              'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } },
              'audio/*': { schema: { type: 'string', description: 'A call’s recording: audio/wav, audio/mpeg, audio/mp4, audio/aac, audio/ogg or audio/flac.' } },
              'application/json': { schema: bodyRef('JobInput') },
            },
          },
        },
        401,
        404,
        503,
      ),
    },
  },
  '/jobs/{id}/transcript': {
    get: {
      operationId: 'getJobTranscript',
      summary: 'Read a call’s timed transcript',
      description:
        'A `call.transcribe` job’s transcript as joined from its chunks: segments in seconds from the call’s start, with the speaker and the provider’s confidence when known, and the confidence below which a segment counts as heard poorly. ' +
        'Readable from the join on, so while the call awaits review too (the reviewer page shows it beside the recording). A 404 for a job of another type or a call not yet joined; a 503 while no worker answers for a running job.',
      tags: ['jobs'],
      security: apiKeyOrReviewer,
      parameters: [jobIdParameter],
      responses: responses({ '200': { description: 'The transcript.', content: json(bodyRef('CallTranscript')) } }, 401, 404, 503),
    },
  },
  '/jobs/{id}/review': {
    post: {
      operationId: 'reviewJob',
      summary: 'Approve (with the fields to post) or reject a job awaiting review',
      description:
        'Goes through the workflow Update `submitReview`: the answer says at once whether the decision counted. A job that is not awaiting review (already decided or moved on) is a 409 `not_awaiting_review`, whatever the fields; invalid fields on a job awaiting review are a 422. ' +
        'An `Idempotency-Key` makes a retried request with the same decision the same Update, so it cannot count twice; the same key with a changed decision is a new decision, refused with a 409 if an earlier one was taken.',
      tags: ['review'],
      security: apiKeyOrReviewer,
      parameters: [
        jobIdParameter,
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Names the decision for safe resends: 1-128 of `A-Z a-z 0-9 . _ ~ -` (the same rule as on `POST /jobs`); anything else is a 400.',
          schema: { type: 'string', pattern: '^[A-Za-z0-9._~-]{1,128}$' },
        },
      ],
      requestBody: { required: true, content: json(bodyRef('ReviewRequest')) },
      responses: responses({ '200': { description: 'Accepted; the job as it is now.', content: json(bodyRef('Job')) } }, 400, 401, 403, 404, 409, 413, 415, 422, 503),
    },
  },
};
