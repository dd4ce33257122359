import type { VisualDocument } from '../common/model-media';
import type { Priority } from '../common/task-queues';

/** What every type's activity input starts with: which job, whose, and at what priority (the gateway's queue). */
export interface JobContext {
  jobId: string;
  tenantId: string;
  priority: Priority;
}

/** A model step over a job's extracted text (or its scan), as the invoice's and the digest's steps are. */
export interface ModelStepInput extends JobContext {
  textKey: string;
  /** Absent in histories recorded before scans were read, and for every document with text. */
  visual?: VisualDocument;
}
