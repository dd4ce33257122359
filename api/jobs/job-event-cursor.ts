import type { JobEvent as JobEventData, JobProgressEvent } from '../../common/api-contract/job-event';
import type { JobProgress, JobStatus, JobStep } from '../../common/job';
import type { JobEvents } from './job-events';

/**
 * One event of a job as every live channel sends it (SSE `event:`/`id:`/`data:`, a WebSocket `event` message):
 * `id` is the job's seq, absent on the server-side status sent while no worker answers.
 */
export type JobChannelEvent =
  | { event: 'status'; id?: number; data: JobEventData }
  | { event: 'progress'; id?: number; data: JobProgressEvent };

/**
 * Where one client is in one job's events: each event is handed out once, in seq order, and a client that resumes
 * from an id gets only what came after it. The SSE route and the WebSocket channel both read a job through this,
 * so an id means the same on both.
 */
export class JobEventCursor {
  private lastSeq: number;
  private lastUnnumbered: string | undefined;
  private lastUnnumberedProgress: number | undefined;

  constructor(
    private readonly jobId: string,
    after: number,
  ) {
    this.lastSeq = after;
  }

  /** The events of the snapshot this client has not had yet, oldest first. */
  next(snapshot: JobEvents): JobChannelEvent[] {
    if (snapshot.events) {
      // Status events and the latest progress share one numbering: handed out in its order, each once.
      const fresh: JobChannelEvent[] = snapshot.events
        .filter((event) => event.seq > this.lastSeq)
        .map((event) => ({ event: 'status', id: event.seq, data: { jobId: this.jobId, ...event } }));
      // Only a numbered progress is an event (a document's); a digest's batch count shows in GET /jobs/:id alone.
      const seq = snapshot.progress?.seq;
      if (snapshot.progress && seq !== undefined && seq > this.lastSeq) fresh.push({ event: 'progress', id: seq, data: this.progressData(snapshot.progress) });
      fresh.sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
      this.lastSeq = Math.max(this.lastSeq, ...fresh.map((event) => event.id ?? 0));
      return fresh;
    }
    // No worker answered: say what the server knows, once per change, without an id (an id from the memo's
    // progress would skip status events the client has not seen once a worker answers again).
    const fresh: JobChannelEvent[] = [];
    const key = `${snapshot.status}/${snapshot.step ?? ''}`;
    if (key !== this.lastUnnumbered) {
      this.lastUnnumbered = key;
      fresh.push({ event: 'status', data: unnumbered(this.jobId, snapshot.status, snapshot.step) });
    }
    const seq = snapshot.progress?.seq;
    if (snapshot.progress && seq !== undefined && seq > this.lastSeq && seq !== this.lastUnnumberedProgress) {
      this.lastUnnumberedProgress = seq;
      fresh.push({ event: 'progress', data: this.progressData(snapshot.progress) });
    }
    return fresh;
  }

  /** True when the client has every numbered event of the snapshot. */
  caughtUp(snapshot: JobEvents): boolean {
    return !snapshot.events || newestSeq(snapshot) <= this.lastSeq;
  }

  private progressData(progress: JobProgress): JobProgressEvent {
    return { jobId: this.jobId, progress };
  }
}

/** The highest seq the snapshot holds, status events and progress together. */
export function newestSeq(snapshot: JobEvents): number {
  return Math.max(snapshot.events?.at(-1)?.seq ?? 0, snapshot.progress?.seq ?? 0);
}

function unnumbered(jobId: string, status: JobStatus, step: JobStep | undefined): JobEventData {
  return { jobId, status, ...(step ? { step } : {}), at: new Date().toISOString(), detailed: false };
}
