import { type Client, ScheduleAlreadyRunning, type ScheduleHandle, ScheduleNotFoundError } from '@temporalio/client';
import type { Schedule, ScheduleList, ScheduleRequest } from '../../common/api-contract/schedule';
import { jobTypeNamed } from '../../common/job-types/registry';
import { JobTypeKey, TenantIdKey } from '../../common/search-attributes';
import type { Config } from '../../lib/config';
import { objectKeys, type ObjectStore } from '../../lib/object-store';
import { ApiError, apiErrors } from '../api-error';
import type { JobReader } from '../jobs/job-reader';
import { scheduledRunStart } from './scheduled-run-start';
import { scheduleActionJobId, temporalScheduleId } from './schedule-ids';
import { scheduleSpecOf } from './schedule-spec';
import { type ScheduleMemo, toScheduleView } from './schedule-view';

export interface SchedulesDeps {
  client: Client;
  store: ObjectStore;
  config: Pick<Config, 'temporal' | 'jobs' | 'api' | 'tenants' | 'batchLane' | 'push'>;
  reader: JobReader;
}

/** A tenant lists its own schedules in one page; more than this many is a sign of a loop in a client. */
const MAX_LISTED_SCHEDULES = 500;

/**
 * A missed run is started late, within a day: a digest due at 06:00 while the server was down still runs at 06:30.
 * Runs never overlap (SKIP): a run still going at the next time skips that time instead of running beside it.
 */
const CATCHUP_WINDOW = '1 day';

const scheduleExists = (scheduleId: string) =>
  new ApiError(409, 'schedule_exists', `this tenant already has a schedule "${scheduleId}"; delete it first or pick another id`, { scheduleId });

/**
 * The server refused the request as invalid (a cron value out of range, say): the client's to fix. The SDK turns the
 * server's "Invalid schedule spec" into a TypeError with the server's words, and other INVALID_ARGUMENTs into a
 * ServiceError whose cause has gRPC code 3.
 */
function refusedAsInvalid(error: unknown): string | undefined {
  if (error instanceof TypeError) return error.message;
  const cause = (error as { cause?: { code?: number; details?: string } }).cause;
  return cause?.code === 3 ? (cause.details ?? 'invalid argument') : undefined;
}

/** `/schedules`: real Temporal Schedules, one per tenant and id, each run an ordinary job of the schedule's type. */
export function createSchedulesService(deps: SchedulesDeps) {
  const { client, store, config, reader } = deps;

  /** The tenant's schedule, or the same 404 for a missing and a foreign one. */
  async function owned(tenantId: string, scheduleId: string): Promise<{ handle: ScheduleHandle; schedule: Schedule }> {
    const temporalId = temporalScheduleId(tenantId, scheduleId);
    const handle = client.schedule.getHandle(temporalId);
    try {
      const description = await handle.describe();
      if ((description.memo as Partial<ScheduleMemo> | undefined)?.tenantId !== tenantId) throw apiErrors.notFound(`schedule ${scheduleId}`);
      return { handle, schedule: toScheduleView(config, temporalId, description) };
    } catch (error) {
      if (error instanceof ScheduleNotFoundError) throw apiErrors.notFound(`schedule ${scheduleId}`);
      throw error;
    }
  }

  /** The file the schedule's runs read: an earlier job's upload, checked to belong to the tenant and still be stored. */
  async function inputOf(tenantId: string, request: ScheduleRequest) {
    const refused = (why: string) => apiErrors.invalidRequest(`"input.jobId" ${why}`, { field: 'input' });
    let description;
    try {
      description = await reader.getOwnedJob(tenantId, request.input.jobId);
    } catch (error) {
      // No such job for this tenant: a 404 as for its id in a path (another tenant's answers alike).
      if (error instanceof ApiError && error.status === 404) {
        throw new ApiError(404, 'not_found', `"input.jobId" names no job of this tenant: ${request.input.jobId}`, { field: 'input' });
      }
      throw error;
    }
    const memo = reader.memoOf(description) as ReturnType<JobReader['memoOf']> & { sizeBytes?: number };
    if (reader.baseOf(description).type !== request.type || !memo.inputSha256) {
      throw refused(`must name a ${request.type} job, whose uploaded file the runs read`);
    }
    const key = objectKeys.input(tenantId, memo.inputSha256);
    if (!(await store.exists(key))) throw refused('names a job whose uploaded file is no longer stored; upload it again');
    return {
      bucket: store.bucket,
      key,
      sha256: memo.inputSha256,
      contentType: 'text/plain' as const,
      sizeBytes: memo.sizeBytes ?? 0,
      fileName: memo.fileName ?? 'tickets.jsonl',
    };
  }

  async function create(tenantId: string, request: ScheduleRequest, callbackUrl: string | undefined): Promise<Schedule> {
    const { spec, timezone } = scheduleSpecOf(request);
    const document = await inputOf(tenantId, request);
    const jobType = jobTypeNamed(request.type);
    if (!jobType) throw apiErrors.invalidRequest(`unknown job type "${request.type}"`, { field: 'type' });
    const priority = request.priority ?? jobType.defaultPriority;
    const temporalId = temporalScheduleId(tenantId, request.scheduleId);
    const start = scheduledRunStart(config, jobType, { tenantId, priority, document, scheduleId: request.scheduleId, ...(callbackUrl ? { callbackUrl } : {}) });
    const memo: ScheduleMemo = {
      tenantId,
      scheduleId: request.scheduleId,
      type: request.type,
      ...(request.cron !== undefined ? { cron: request.cron } : {}),
      ...(request.every !== undefined ? { every: request.every } : {}),
      timezone,
      inputJobId: request.input.jobId,
      priority,
    };
    try {
      await client.schedule.create({
        scheduleId: temporalId,
        spec,
        action: {
          type: 'startWorkflow',
          workflowType: start.workflowType,
          workflowId: scheduleActionJobId(request.type, tenantId, request.scheduleId),
          taskQueue: start.taskQueue,
          args: start.args,
          memo: start.memo,
          typedSearchAttributes: start.typedSearchAttributes,
          staticSummary: start.staticSummary,
        },
        policies: { overlap: 'SKIP', catchupWindow: CATCHUP_WINDOW },
        state: { paused: request.paused ?? false, ...(request.note ? { note: request.note } : {}) },
        memo: memo as unknown as Record<string, unknown>,
        typedSearchAttributes: [
          { key: TenantIdKey, value: tenantId },
          { key: JobTypeKey, value: request.type },
        ],
      });
    } catch (error) {
      if (error instanceof ScheduleAlreadyRunning) throw scheduleExists(request.scheduleId);
      const invalid = refusedAsInvalid(error);
      if (invalid !== undefined) throw apiErrors.invalidRequest(`the schedule's timing was refused: ${invalid}`, { field: request.cron !== undefined ? 'cron' : 'every' });
      throw error;
    }
    return (await owned(tenantId, request.scheduleId)).schedule;
  }

  async function list(tenantId: string): Promise<ScheduleList> {
    const schedules: Schedule[] = [];
    // Visibility, like GET /jobs: answers with no worker, and only ever this tenant's schedules.
    for await (const summary of client.schedule.list({ query: `TenantId = '${tenantId}'`, pageSize: 100 })) {
      if ((summary.memo as Partial<ScheduleMemo> | undefined)?.tenantId !== tenantId) continue;
      schedules.push(toScheduleView(config, summary.scheduleId, summary));
      if (schedules.length >= MAX_LISTED_SCHEDULES) break;
    }
    schedules.sort((a, b) => a.scheduleId.localeCompare(b.scheduleId));
    return { schedules };
  }

  return {
    create,
    list,
    get: async (tenantId: string, scheduleId: string): Promise<Schedule> => (await owned(tenantId, scheduleId)).schedule,
    pause: async (tenantId: string, scheduleId: string, note?: string): Promise<Schedule> => {
      await (await owned(tenantId, scheduleId)).handle.pause(note || 'paused through the API');
      return (await owned(tenantId, scheduleId)).schedule;
    },
    resume: async (tenantId: string, scheduleId: string, note?: string): Promise<Schedule> => {
      // An empty note would read as "no unpause" on the wire (proto3's empty string), so there is always one.
      await (await owned(tenantId, scheduleId)).handle.unpause(note || 'resumed through the API');
      return (await owned(tenantId, scheduleId)).schedule;
    },
    /** One run now, beside the timetable; its id carries the trigger time, so a repeated trigger is another run. */
    trigger: async (tenantId: string, scheduleId: string): Promise<Schedule> => {
      const { handle, schedule } = await owned(tenantId, scheduleId);
      await handle.trigger('ALLOW_ALL');
      return schedule;
    },
    remove: async (tenantId: string, scheduleId: string): Promise<void> => {
      await (await owned(tenantId, scheduleId)).handle.delete();
    },
  };
}

export type SchedulesService = ReturnType<typeof createSchedulesService>;
