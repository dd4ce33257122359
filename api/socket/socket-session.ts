import type { JobStreamEnd } from '../../common/api-contract/job-event';
import type { SocketClientMessage, SocketServerMessage } from '../../common/api-contract/job-socket';
import { isTerminal, type JobStatus } from '../../common/job';
import type { Logger } from '../../lib/logger';
import { ApiError } from '../api-error';
import type { Caller } from '../auth';
import { JobEventCursor } from '../jobs/job-event-cursor';
import type { JobEvents } from '../jobs/job-events';
import type { JobsService } from '../jobs-service';
import type { TenantSlots } from '../tenant-slots';

/** A filter follows the jobs on the first page `GET /jobs` would list for it. */
const FILTER_PAGE_SIZE = 200;
/** Jobs of a filter read at once; the rest of the API shares Temporal with these reads. */
const FILTER_READS_AT_ONCE = 8;

type Filter = Extract<SocketClientMessage, { filter: unknown }>['filter'];

/** One job a subscription follows: where the client is in its events, and the slot it holds of the tenant's share. */
interface FollowedJob {
  cursor: JobEventCursor;
  release: () => void;
  /** For a filter: the status/step visibility listed when its events were last read (read again only when it moves). */
  listed?: string;
}

interface Subscription {
  jobs: Map<string, FollowedJob>;
  filter?: { filter: Filter; release: () => void; lastEventIds: Record<string, number> };
}

export type SessionOutcome = { kind: 'ok' } | { kind: 'too_many_subscriptions'; limit: number };

/**
 * What one connection follows and sends, independent of the socket: each subscription's jobs are read through the
 * same cursor as SSE, so an event's id is the job's seq on both channels. Every read names the tenant the token
 * proved, so no subscription can reach another tenant's job.
 */
export class SocketSession {
  private readonly subscriptions = new Map<string, Subscription>();

  constructor(
    private readonly deps: { jobs: JobsService; log: Logger; subscriptions: TenantSlots },
    private readonly caller: Caller,
    private readonly send: (message: SocketServerMessage) => void,
  ) {}

  handle(message: SocketClientMessage): SessionOutcome {
    if (message.type === 'unsubscribe') {
      const subscription = this.subscriptions.get(message.subscription);
      if (!subscription) return this.error('no_such_subscription', `no subscription "${message.subscription}"`, message.subscription);
      this.drop(message.subscription);
      this.send({ type: 'unsubscribed', subscription: message.subscription });
      return { kind: 'ok' };
    }
    if (this.subscriptions.has(message.subscription)) {
      return this.error('subscription_exists', `a subscription "${message.subscription}" exists; unsubscribe it first or choose another name`, message.subscription);
    }
    const lastEventIds = message.lastEventIds ?? {};
    const subscription: Subscription = { jobs: new Map() };
    if ('filter' in message) {
      const release = this.deps.subscriptions.tryAcquire(this.tenantId);
      if (!release) return { kind: 'too_many_subscriptions', limit: this.deps.subscriptions.limit };
      subscription.filter = { filter: message.filter, release, lastEventIds };
    } else {
      for (const jobId of message.jobIds) {
        const release = this.deps.subscriptions.tryAcquire(this.tenantId);
        if (!release) {
          for (const job of subscription.jobs.values()) job.release();
          return { kind: 'too_many_subscriptions', limit: this.deps.subscriptions.limit };
        }
        subscription.jobs.set(jobId, { cursor: new JobEventCursor(jobId, lastEventIds[jobId] ?? 0), release });
      }
    }
    this.subscriptions.set(message.subscription, subscription);
    this.send({ type: 'subscribed', subscription: message.subscription });
    return { kind: 'ok' };
  }

  /** Reads every followed job once and sends what is new; the server calls it on each poll tick. */
  async poll(): Promise<void> {
    for (const [name, subscription] of [...this.subscriptions]) {
      if (subscription.filter) await this.pollFilter(name, subscription);
      else for (const [jobId, job] of [...subscription.jobs]) await this.pollJob(name, subscription, jobId, job);
    }
  }

  /** Releases every slot this connection holds. */
  close(): void {
    for (const name of [...this.subscriptions.keys()]) this.drop(name);
  }

  private get tenantId(): string {
    return this.caller.tenant.id;
  }

  private async pollJob(name: string, subscription: Subscription, jobId: string, job: FollowedJob): Promise<void> {
    const snapshot = await this.read(name, jobId);
    if (snapshot === 'gone') {
      job.release();
      subscription.jobs.delete(jobId);
      return;
    }
    if (!snapshot || !this.subscriptions.has(name)) return;
    this.sendEvents(name, job.cursor, snapshot);
    if (isTerminal(snapshot.status) && job.cursor.caughtUp(snapshot)) {
      this.sendEnd(name, jobId, snapshot.status);
      job.release();
      subscription.jobs.delete(jobId);
    }
  }

  /**
   * One visibility list per tick; a listed job's events are read only when its status or step moved, so a quiet
   * queue costs one list a tick. A job that leaves the list is read once more (its last move is the news).
   */
  private async pollFilter(name: string, subscription: Subscription): Promise<void> {
    const { filter, lastEventIds } = subscription.filter as NonNullable<Subscription['filter']>;
    let listed: Array<{ jobId: string; status: JobStatus; step?: string }>;
    try {
      listed = (await this.deps.jobs.list(this.tenantId, { ...filter, pageSize: FILTER_PAGE_SIZE })).jobs;
    } catch (error) {
      this.deps.log.warn({ err: error, tenantId: this.tenantId }, 'job list unavailable for a socket filter; retrying');
      return;
    }
    const now = new Map(listed.map((job) => [job.jobId, `${job.status}/${job.step ?? ''}`]));
    const moved = [...now].filter(([jobId, listing]) => subscription.jobs.get(jobId)?.listed !== listing);
    // A filter's first read can name a whole page of jobs: read a few at a time, not one after another.
    for (let i = 0; i < moved.length; i += FILTER_READS_AT_ONCE) {
      const batch = moved.slice(i, i + FILTER_READS_AT_ONCE);
      const snapshots = await Promise.all(batch.map(([jobId]) => this.read(name, jobId)));
      if (!this.subscriptions.has(name)) return;
      batch.forEach(([jobId, listing], index) => {
        const snapshot = snapshots[index];
        if (snapshot === 'gone') subscription.jobs.delete(jobId);
        if (snapshot === 'gone' || !snapshot) return;
        // Filter jobs hold no slot of their own: the filter's one slot covers the page it follows.
        const job = subscription.jobs.get(jobId) ?? { cursor: new JobEventCursor(jobId, lastEventIds[jobId] ?? 0), release: () => undefined };
        subscription.jobs.set(jobId, job);
        this.sendEvents(name, job.cursor, snapshot);
        job.listed = listing;
      });
    }
    for (const [jobId, job] of [...subscription.jobs]) {
      if (now.has(jobId)) continue;
      subscription.jobs.delete(jobId);
      const snapshot = await this.read(name, jobId);
      if (snapshot && snapshot !== 'gone' && this.subscriptions.has(name)) this.sendEvents(name, job.cursor, snapshot);
    }
  }

  /** The job's events; 'gone' (and the client told) when it is not the tenant's or no longer exists. */
  private async read(name: string, jobId: string): Promise<JobEvents | 'gone' | undefined> {
    try {
      return await this.deps.jobs.events(this.tenantId, jobId);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        this.error('not_found', `job ${jobId} was not found`, name, jobId);
        return 'gone';
      }
      // Temporal unreachable for a moment: keep following and read again on the next tick.
      this.deps.log.warn({ err: error, jobId }, 'job events unavailable for a socket; retrying');
      return undefined;
    }
  }

  private sendEvents(name: string, cursor: JobEventCursor, snapshot: JobEvents): void {
    for (const event of cursor.next(snapshot)) this.send({ type: 'event', subscription: name, ...event });
  }

  private sendEnd(name: string, jobId: string, status: JobStatus): void {
    const data: JobStreamEnd = { jobId, status };
    this.send({ type: 'event', subscription: name, event: 'end', data });
  }

  private drop(name: string): void {
    const subscription = this.subscriptions.get(name);
    if (!subscription) return;
    this.subscriptions.delete(name);
    subscription.filter?.release();
    for (const job of subscription.jobs.values()) job.release();
  }

  private error(code: Extract<SocketServerMessage, { type: 'error' }>['code'], message: string, subscription?: string, jobId?: string): SessionOutcome {
    this.send({ type: 'error', code, message, ...(subscription ? { subscription } : {}), ...(jobId ? { jobId } : {}) });
    return { kind: 'ok' };
  }
}
