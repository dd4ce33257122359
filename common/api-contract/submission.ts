import { type Static, Type } from '@sinclair/typebox';
import { Deadline } from './deadline';
import { Links } from './job-parts';
import { closed, ref } from './schema-kit';
import { FileJobType } from './job-types';
import { JobStatus, Priority } from './vocabulary';

/**
 * The multipart form of `POST /jobs`, for the types that take a file (JSON-input types send SubmitJobRequest). The route checks the form's text parts against it with the file part
 * standing in as its file name; the bytes themselves are judged by multipart-upload.
 */
export const SubmitJobForm = closed({
  file: Type.String({
    contentMediaType: 'application/octet-stream',
    // An empty file is a 400: no type reads anything from nothing.
    minLength: 1,
    description: 'A PDF, a PNG or JPEG image (a scan: at most 3.75 MiB and 8000x8000 px, the Messages API\'s image limits), a UTF-8 text file, or for `call.transcribe` a recording (WAV, MP3, M4A/AAC, OGG/Opus, FLAC; at most CALL_MAX_DURATION_SECONDS long), judged by its bytes.',
    // Random bytes are neither, so a generating client (Schemathesis) needs one file the API takes.
    examples: ['INVOICE\nSeller: Example Supplies GmbH\nInvoice number: EX-1001\nInvoice date: 2026-11-20\nTotal due: 119.00 EUR\n'],
  }),
  type: ref('FileJobType', FileJobType),
  priority: Type.Optional(ref('Priority', Priority, { description: '`interactive` (default; a person waits) or `bulk` (backfills).' })),
  callbackUrl: Type.Optional(
    Type.String({
      format: 'uri',
      description:
        'Where signed webhooks go (Standard Webhooks). http(s) only; loopback, private and link-local targets are refused unless the deployment allows them. Defaults to the tenant’s `defaultCallbackUrl`.',
    }),
  ),
  deadline: Type.Optional(Deadline),
});
export type SubmitJobForm = Static<typeof SubmitJobForm>;

/** The 202 answer to `POST /jobs`. */
export const Submission = closed({
  jobId: Type.String(),
  status: ref('JobStatus', JobStatus),
  links: ref('Links', Links),
});
export type Submission = Static<typeof Submission>;
