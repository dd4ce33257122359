import type { TSchema } from '@sinclair/typebox';
import type { UploadContentType } from '../upload-content-type';
import type { Priority } from '../task-queues';

/**
 * What one kind of job is, as data: the API, status, SSE, webhooks, listing, CLI, OpenAPI document, dead letters,
 * replay, metrics and cost know a type only through this (docs/job-types.md). Workflow-safe: no workflow or
 * activity code here, only names and schemas, so workflows, the API and the reviewer page can all read it.
 */
export interface JobTypeDefinition<Name extends string = string, Step extends string = string> {
  /** The `type` clients send and the first part of every job id: lower case, dots allowed, no colon. */
  name: Name;
  /** One line for the OpenAPI document and `slowlane submit --help`. */
  summary: string;
  input: JobInput;
  /** The workflow function's exported name in workflows/index.ts: the Temporal workflow type. */
  workflowType: string;
  /** The queues the type's workflow and activities run on: one per priority (common/task-queues.ts). */
  priorities: readonly Priority[];
  defaultPriority: Priority;
  /** The activities the workflow runs, each named after its activity; the job's `step` is one of these or `review`. */
  steps: readonly Step[];
  /** The job's `result` once it finished well; also in the webhook of its final event. */
  result: TSchema;
  /** What the model proposed while a person decides (shown on the reviewer page); absent when nothing is proposed. */
  proposal?: TSchema;
  review: ReviewRule;
  /** The deployment's job settings its workflow input carries beyond every job's (lib/config/jobs-settings.ts). */
  settings?: readonly JobSetting[];
  webhook: WebhookPayload;
  reviewer: ReviewerView;
  /** Where its jobs leave objects in S3 beyond the upload, its text and the batch lane's entries; an erasure reads it. */
  objects?: StoredObjects;
}

/**
 * The S3 prefixes a type's activities write under. A key under a content prefix that contains the job's id
 * (URL-encoded, between dots) is that job's own; the rest is shared by the tenant's jobs of the same upload.
 */
export interface StoredObjects {
  /** Everything under it belongs to the one job. */
  ownPrefix?: (tenantId: string, jobId: string) => string;
  /** Named by the upload's content, so a retried job reuses it. */
  contentPrefix?: (tenantId: string, sha256: string) => string;
}

/** A file upload (multipart), judged by its bytes, or a JSON body checked against its schema. */
export type JobInput =
  | { kind: 'file'; accepts: readonly FileKind[] }
  | { kind: 'json'; schema: TSchema; description: string };

/**
 * One kind of file a type takes, and the limits the API holds it to before the job starts: each one past is a `413`
 * of the same shape for every type (docs/clients.md#limits-at-the-door), so nothing the door could have measured
 * fails the job later.
 */
export interface FileKind {
  contentType: UploadContentType;
  /**
   * Over this the upload is refused with 413; absent: the API's own upload limit (MAX_UPLOAD_BYTES). It may be
   * larger than that: the API spools uploads up to the largest limit any type declares.
   */
  maxBytes?: Limit;
  /** An image wider or taller than this is refused with 413 (read from its header when the upload arrives). */
  maxSidePx?: number;
  /**
   * More pages than this are refused with 413 `too_many_pages`: a PDF's count comes from its page tree (no page is
   * parsed), a text's from its form feeds. A number, or the deployment setting that holds it; the worker applies
   * the same limit.
   */
  maxPages?: Limit;
  /**
   * A recording longer than this (seconds, read with ffprobe when the upload arrives) is refused with 413
   * `too_long`; the worker reads the same duration.
   */
  maxDurationSeconds?: Limit;
  /**
   * A text file of one JSON object per line (JSONL), each line held to `schema`: the API reads it before it starts
   * the job and answers a 400 naming the first bad line (common/job-types/json-lines.ts), 413 past `maxLines`.
   */
  jsonLines?: JsonLines;
}

/** A limit fixed by the type, or read from one of the deployment's settings (by its variable's name). */
export type Limit = number | { setting: LimitSetting };

/** The settings a limit may name; the API reads each from its configuration (api/jobs/input-limits.ts). */
export type LimitSetting = 'MAX_UPLOAD_BYTES' | 'DOCUMENT_MAX_PAGES' | 'MODEL_SCANNED_MAX_PAGES' | 'CALL_MAX_DURATION_SECONDS' | 'CALL_MAX_UPLOAD_BYTES';

export interface JsonLines {
  schema: TSchema;
  maxLines: number;
  /** A field whose value no two lines may share (the ids a result names lines by). */
  uniqueBy?: string;
}

/**
 * When a person decides. `confidence`: below the deployment's CONFIDENCE_THRESHOLD (invoice). `score-band`: a
 * score in [approveBelow, declineFrom) is the grey zone; the bands are defaults that JOB_REVIEW_BANDS overrides.
 */
export type ReviewRule =
  | { kind: 'confidence' }
  | { kind: 'score-band'; approveBelow: number; declineFrom: number }
  | { kind: 'none' };

/** The band a score-band type's workflow receives, after the deployment's override (lib/config jobs settings). */
export interface ScoreBand {
  approveBelow: number;
  declineFrom: number;
}

/** A setting of the deployment's `jobs` area that a type's input may carry, by its name there. */
export type JobSetting = 'confidenceThreshold' | 'maxExtractionTries';

/** Which statuses are told to the callback URL (as `job.<status>`), and whether the event carries the result. */
export interface WebhookPayload {
  includesResult: boolean;
  /** Fields of the result every event carries beside `status` once the result has them (the webhook contract's). */
  fromResult?: readonly 'ledgerEntryId'[];
}

/**
 * How the reviewer page shows a job of this type: read-only fields picked from the job's `input` and `proposal`
 * by path, and whether approving means editing a result (its schema) or only saying yes or no.
 */
export interface ReviewerView {
  title: string;
  /** Shows the uploaded document beside the fields (file inputs only). */
  showsDocument: boolean;
  /** What a reviewer edits and approves with; absent: approve carries no fields. */
  editable?: EditableResult;
  /** Where a JSON input names the job (e.g. `order.id`), for the page's heading; file jobs go by their file's name. */
  namedBy?: string;
  sections: readonly ReviewerSection[];
}

/**
 * A result a reviewer edits before approving, declared by schema: the reviewer page builds its form from it, and
 * the API and the review Update check an approval's `fields` against it, so no type is named in either.
 * The form shows objects, arrays of objects or of values, and string, number, integer, boolean and string-enum
 * values, each nullable or not; `required` marks what must be filled in, `format` and `pattern` show as hints
 * (docs/job-types.md#editable-results).
 */
export interface EditableResult {
  /** Its name among the OpenAPI document's components (an approval's `fields` refers to it). */
  component: string;
  schema: TSchema;
  /**
   * Dot-separated path in the Job body of the value the form starts from (what the model proposed), e.g.
   * `extraction.invoice`; absent: the form starts blank. When nothing is there and the model's answer failed its
   * schema, whatever parses of its raw output stands in for the path's first part.
   */
  startsFrom?: string;
  /** Dot-separated path in the Job body of the model's confidence (0..1) per top-level field, marked when low. */
  confidenceFrom?: string;
  /**
   * Dot-separated path in the Job body of where each top-level field was read (FieldCitations): the page highlights
   * a focused field's passage on the document and flags a field without one.
   */
  citationsFrom?: string;
}

export interface ReviewerSection {
  heading: string;
  /** Where the values come from in the Job body. */
  from: 'input' | 'proposal' | 'result';
  fields: readonly ReviewerField[];
}

export interface ReviewerField {
  label: string;
  /** Dot-separated path inside `from`, e.g. `customer.accountAgeDays`. */
  path: string;
  /** `list` shows an array one item per line; `score` a 0..1 number as a percentage. */
  format?: 'text' | 'list' | 'score' | 'yes-no';
}

/** Keeps the literal name, steps and schemas, so the registry can derive the vocabulary's types from its entries. */
export function defineJobType<const D extends JobTypeDefinition>(definition: D): D {
  return definition;
}
