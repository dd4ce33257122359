import { setTimeout as delay } from 'node:timers/promises';
import { type Request, type Response, Router } from 'express';
import type { JobStreamEnd } from '../common/api-contract/job-event';
import { isTerminal } from '../common/job';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import { authenticate, callerOf } from './auth';
import { JobEventCursor, newestSeq } from './jobs/job-event-cursor';
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

/** Writes the cursor's events as Server-Sent Events. */
class JobEventWriter {
  private readonly cursor: JobEventCursor;

  constructor(
    private readonly res: Response,
    jobId: string,
    after: number,
  ) {
    this.cursor = new JobEventCursor(jobId, after);
  }

  /** True when something was written. */
  write(snapshot: JobEvents): boolean {
    const events = this.cursor.next(snapshot);
    for (const { event, id, data } of events) {
      this.res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    }
    return events.length > 0;
  }

  caughtUp(snapshot: JobEvents): boolean {
    return this.cursor.caughtUp(snapshot);
  }
}

/** `Last-Event-ID` (EventSource sends it on reconnect) or `?lastEventId=` for clients that cannot set headers. */
function lastEventIdOf(req: Request): number {
  const raw = req.header('last-event-id') ?? (typeof req.query.lastEventId === 'string' ? req.query.lastEventId : undefined);
  const parsed = Number(raw);
  return raw !== undefined && Number.isInteger(parsed) && parsed > 0 ? parsed : 0;
}
