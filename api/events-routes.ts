import { setTimeout as delay } from 'node:timers/promises';
import { type Request, type Response, Router } from 'express';
import type { JobProgressEvent, JobStreamEnd } from '../common/api-contract/job-event';
import { isTerminal, type JobEvent, type JobProgress, type JobStatus, type JobStep } from '../common/job';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import { authenticate, callerOf } from './auth';
import type { JobEvents } from './jobs/job-events';
import type { JobsService } from './jobs-service';
import { apiErrors } from './api-error';
import { tenantSlots } from './tenant-slots';

/** Comments on an idle stream keep proxies and load balancers from closing it. */
const KEEP_ALIVE_MS = 15_000;
/** While a job waits for a person, nothing changes for hours: look less often. */
const HUMAN_WAIT_POLL_MS = 5_000;
/** What EventSource clients wait before reconnecting after a dropped connection. */
const RECONNECT_MS = 2_000;

/**
 * `GET /jobs/:id/events`: Server-Sent Events, one `status` event per entry of the job's event list (id = seq) and,
 * for a fan-out, a `progress` event per progress seen (its seq in the same numbering; a superseded one is skipped),
 * resumable with `Last-Event-ID`, closed after the terminal status. The events come from the workflow's status
 * query; while no worker answers, the server-side status is sent as an event without an id, so a resuming
 * client's position is kept.
 */
export function eventsRouter(deps: { jobs: JobsService; config: Pick<Config, 'tenants' | 'people' | 'clients' | 'api'>; log: Logger }): Router {
  const router = Router();
  const callers = authenticate(deps.config, ['api', 'reviewer']);
  const streams = tenantSlots(deps.config.api.maxEventStreamsPerTenant);

  router.get('/jobs/:id/events', callers, async (req: Request, res: Response) => {
    const tenantId = callerOf(res).tenant.id;
    const jobId = String(req.params.id);
    const after = lastEventIdOf(req);
    const release = streams.tryAcquire(tenantId);
    if (!release) throw apiErrors.tooManyRequests('event streams', streams.limit, RECONNECT_MS / 1000);
    // Listening from the start: a client that leaves while the first snapshot is read must not leave a poller behind.
    const closed = new AbortController();
    res.on('close', () => {
      closed.abort();
      release();
    });
    // Not found and not yours answer as JSON errors, before the stream starts.
    let snapshot = await deps.jobs.events(tenantId, jobId);
    if (closed.signal.aborted) return;
    if (isTerminal(snapshot.status) && snapshot.events && newestSeq(snapshot) <= after && after > 0) {
      // An EventSource that reconnects after the end is told to stop (204 is the spec's "do not reconnect").
      res.status(204).end();
      return;
    }

    res.status(200).set({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    res.write(`retry: ${RECONNECT_MS}\n\n`);

    const stream = new JobEventWriter(res, jobId, after);
    let lastWriteAt = Date.now();
    try {
      for (;;) {
        if (stream.write(snapshot)) lastWriteAt = Date.now();
        if (isTerminal(snapshot.status) && stream.caughtUp(snapshot)) break;
        if (Date.now() - lastWriteAt >= KEEP_ALIVE_MS) {
          res.write(': keep-alive\n\n');
          lastWriteAt = Date.now();
        }
        const waitMs = ['awaiting_review', 'dead_letter', 'budget_wait'].includes(snapshot.status)
          ? Math.max(deps.config.clients.eventsPollMs, HUMAN_WAIT_POLL_MS)
          : deps.config.clients.eventsPollMs;
        // Rejects (AbortError) as soon as the client has gone.
        if (!(await delay(waitMs, true, { signal: closed.signal }).catch(() => false))) return;
        try {
          snapshot = await deps.jobs.events(tenantId, jobId);
        } catch (error) {
          // Temporal unreachable for a moment: keep the stream and try again on the next tick.
          deps.log.warn({ err: error, jobId }, 'job events unavailable; retrying');
        }
      }
      const end: JobStreamEnd = { jobId, status: snapshot.status };
      res.write(`event: end\ndata: ${JSON.stringify(end)}\n\n`);
    } finally {
      res.end();
    }
  });

  return router;
}

/** Writes each event once, in order; remembers what the client has already seen. */
class JobEventWriter {
  private lastSeq: number;
  private lastUnnumbered: string | undefined;
  private lastUnnumberedProgress: number | undefined;

  constructor(
    private readonly res: Response,
    private readonly jobId: string,
    after: number,
  ) {
    this.lastSeq = after;
  }

  /** True when something was written. */
  write(snapshot: JobEvents): boolean {
    if (snapshot.events) {
      // Status events and the latest progress share one numbering: written in its order, each once.
      const fresh: Array<{ seq: number; line: string }> = snapshot.events
        .filter((event) => event.seq > this.lastSeq)
        .map((event) => ({ seq: event.seq, line: `event: status\ndata: ${JSON.stringify({ jobId: this.jobId, ...event })}` }));
      // Only a numbered progress is an event (a document's); a digest's batch count shows in GET /jobs/:id alone.
      const seq = snapshot.progress?.seq;
      if (snapshot.progress && seq !== undefined && seq > this.lastSeq) fresh.push({ seq, line: `event: progress\ndata: ${this.progressData(snapshot.progress)}` });
      fresh.sort((a, b) => a.seq - b.seq);
      for (const { seq, line } of fresh) {
        this.res.write(`id: ${seq}\n${line}\n\n`);
        this.lastSeq = seq;
      }
      return fresh.length > 0;
    }
    // No worker answered: say what the server knows, once per change, without an id (an id from the memo's
    // progress would skip status events the client has not seen once a worker answers again).
    let written = false;
    const key = `${snapshot.status}/${snapshot.step ?? ''}`;
    if (key !== this.lastUnnumbered) {
      this.lastUnnumbered = key;
      this.res.write(`event: status\ndata: ${JSON.stringify(unnumbered(this.jobId, snapshot.status, snapshot.step))}\n\n`);
      written = true;
    }
    const seq = snapshot.progress?.seq;
    if (snapshot.progress && seq !== undefined && seq > this.lastSeq && seq !== this.lastUnnumberedProgress) {
      this.lastUnnumberedProgress = seq;
      this.res.write(`event: progress\ndata: ${this.progressData(snapshot.progress)}\n\n`);
      written = true;
    }
    return written;
  }

  caughtUp(snapshot: JobEvents): boolean {
    return !snapshot.events || newestSeq(snapshot) <= this.lastSeq;
  }

  private progressData(progress: JobProgress): string {
    const data: JobProgressEvent = { jobId: this.jobId, progress };
    return JSON.stringify(data);
  }
}

/** The highest seq the snapshot holds, status events and progress together. */
function newestSeq(snapshot: JobEvents): number {
  return Math.max(snapshot.events?.at(-1)?.seq ?? 0, snapshot.progress?.seq ?? 0);
}

function unnumbered(jobId: string, status: JobStatus, step: JobStep | undefined): Omit<JobEvent, 'seq'> & { jobId: string; detailed: false } {
  return { jobId, status, ...(step ? { step } : {}), at: new Date().toISOString(), detailed: false };
}

/** `Last-Event-ID` (EventSource sends it on reconnect) or `?lastEventId=` for clients that cannot set headers. */
function lastEventIdOf(req: Request): number {
  const raw = req.header('last-event-id') ?? (typeof req.query.lastEventId === 'string' ? req.query.lastEventId : undefined);
  const parsed = Number(raw);
  return raw !== undefined && Number.isInteger(parsed) && parsed > 0 ? parsed : 0;
}
