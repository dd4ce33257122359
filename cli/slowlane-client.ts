import { setTimeout as delay } from 'node:timers/promises';
import type { Job } from '../common/api-contract/job';
import type { Schedule, ScheduleList } from '../common/api-contract/schedule';
import type { Priority } from '../common/task-queues';

export interface ClientOptions {
  apiUrl: string;
  apiKey: string;
}

export interface Submitted {
  jobId: string;
  status: string;
  replayed: boolean;
}

/** An error answer of the API, with its stable code. */
export class ApiCallError extends Error {
  override readonly name = 'ApiCallError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The API's `details`, e.g. `{ field: 'cron' }` for a 400. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
  /** Worth trying again: the service was down or busy, and the Idempotency-Key makes a repeat harmless. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

const ATTEMPTS = 4;

/** The few API calls the CLI makes, each retried with backoff when the failure is temporary. */
export function createSlowlaneClient(options: ClientOptions) {
  const base = options.apiUrl.replace(/\/$/, '');
  const authorization = `Bearer ${options.apiKey}`;

  /**
   * `retry: false` for a call that must not be sent twice: a repeated create or delete whose first answer was lost
   * would read as a 409 or 404, and a repeated trigger would start a second run.
   */
  async function call(path: string, init: RequestInit = {}, options: { retry?: boolean } = {}): Promise<Response> {
    const attempts = options.retry === false ? 1 : ATTEMPTS;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, { ...init, headers: { ...init.headers, authorization } });
      } catch (error) {
        const cause = networkCause(error);
        const failure = new ApiCallError(0, 'unreachable', `cannot reach ${base} (${cause})`);
        if (attempt >= attempts) throw failure;
        await pause(attempt);
        continue;
      }
      if (response.ok) return response;
      const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string; details?: Record<string, unknown> } };
      const failure = new ApiCallError(response.status, body.error?.code ?? `http_${response.status}`, body.error?.message ?? response.statusText, body.error?.details);
      if (!failure.retryable || attempt >= attempts) throw failure;
      await pause(attempt, response.headers.get('retry-after'));
    }
  }

  return {
    /** A job of a type that takes a file (invoice, document). */
    async submit(input: {
      type?: string;
      bytes: Uint8Array;
      fileName: string;
      idempotencyKey: string;
      priority: Priority;
      callbackUrl?: string;
      deadline?: string;
    }): Promise<Submitted> {
      const form = new FormData();
      form.set('type', input.type ?? 'invoice');
      form.set('priority', input.priority);
      if (input.callbackUrl) form.set('callbackUrl', input.callbackUrl);
      if (input.deadline) form.set('deadline', input.deadline);
      form.set('file', new Blob([input.bytes]), input.fileName);
      const response = await call('/jobs', { method: 'POST', headers: { 'idempotency-key': input.idempotencyKey }, body: form });
      const body = (await response.json()) as { jobId: string; status: string };
      return { jobId: body.jobId, status: body.status, replayed: response.headers.get('idempotent-replayed') === 'true' };
    },

    /** A job of a type that takes JSON input. */
    async submitJson(input: { type: string; input: unknown; idempotencyKey: string; priority: Priority; callbackUrl?: string; deadline?: string }): Promise<Submitted> {
      const body = {
        type: input.type,
        input: input.input,
        priority: input.priority,
        ...(input.callbackUrl ? { callbackUrl: input.callbackUrl } : {}),
        ...(input.deadline ? { deadline: input.deadline } : {}),
      };
      const response = await call('/jobs', {
        method: 'POST',
        headers: { 'idempotency-key': input.idempotencyKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { jobId: string; status: string };
      return { jobId: answer.jobId, status: answer.status, replayed: response.headers.get('idempotent-replayed') === 'true' };
    },

    /** The job, and how long the API suggests waiting before asking again. */
    async get(jobId: string): Promise<{ job: Job; retryAfterMs?: number }> {
      const response = await call(`/jobs/${encodeURIComponent(jobId)}`);
      const retryAfter = Number(response.headers.get('retry-after'));
      return { job: (await response.json()) as Job, ...(retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}) };
    },

    /** `POST /schedules` with the body as the user wrote it: the API judges it and says what is wrong. */
    async createSchedule(body: unknown): Promise<Schedule> {
      const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
      return (await (await call('/schedules', init, { retry: false })).json()) as Schedule;
    },

    async listSchedules(): Promise<ScheduleList> {
      return (await (await call('/schedules')).json()) as ScheduleList;
    },

    async getSchedule(scheduleId: string): Promise<Schedule> {
      return (await (await call(schedulePath(scheduleId))).json()) as Schedule;
    },

    /** Pause and resume are idempotent (the state is set, not toggled), so they retry like a read. */
    async setScheduleState(scheduleId: string, action: 'pause' | 'resume', body: unknown): Promise<Schedule> {
      const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
      return (await (await call(`${schedulePath(scheduleId)}/${action}`, init)).json()) as Schedule;
    },

    async triggerSchedule(scheduleId: string): Promise<Schedule> {
      return (await (await call(`${schedulePath(scheduleId)}/trigger`, { method: 'POST' }, { retry: false })).json()) as Schedule;
    },

    async deleteSchedule(scheduleId: string): Promise<void> {
      await call(schedulePath(scheduleId), { method: 'DELETE' }, { retry: false });
    },
  };
}

export type SlowlaneClient = ReturnType<typeof createSlowlaneClient>;

const schedulePath = (scheduleId: string): string => `/schedules/${encodeURIComponent(scheduleId)}`;

function pause(attempt: number, retryAfter?: string | null): Promise<void> {
  const hinted = Number(retryAfter);
  const ms = hinted > 0 ? hinted * 1000 : Math.min(500 * 2 ** (attempt - 1), 8_000);
  return delay(ms);
}

/** fetch hides the reason (ECONNREFUSED, ENOTFOUND…) in its cause, sometimes inside an AggregateError. */
function networkCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; errors?: Array<{ code?: string }> } }).cause;
  return cause?.code ?? cause?.errors?.[0]?.code ?? (error instanceof Error ? error.message : String(error));
}
