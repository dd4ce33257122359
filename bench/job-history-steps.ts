import { tsToMs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';

const EventType = temporal.api.enums.v1.EventType;

export type Payload = temporal.api.common.v1.IPayload;

/** One scheduled activity as the server recorded it: times in ms, absent where no such event was written. */
export interface ActivityStep {
  activity: string;
  taskQueue: string;
  scheduledAt: number;
  /** ActivityTaskStarted is written when the attempt ends, but carries the time the last attempt started. */
  startedAt?: number;
  attempt?: number;
  /** The timeout that ended the attempt before the last one, if one did: its worker died under it. */
  timedOutBefore?: temporal.api.enums.v1.TimeoutType;
  closedAt?: number;
  /** It completed (not failed, timed out or cancelled), with this result when it returned one. */
  completed?: true;
  result?: Payload;
}

/** A job's run read from its history: when it started and closed, and its activities in the order scheduled. */
export interface JobRunSteps {
  startedAt?: number;
  closedAt?: number;
  steps: ActivityStep[];
}

const CLOSED = new Set<temporal.api.enums.v1.EventType>([
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
]);

/** The one walk over a job's events the benchmarks share (the chaos bench's reruns, the fairness bench's time split). */
export function readRunSteps(history: temporal.api.history.v1.IHistory): JobRunSteps {
  const byScheduledId = new Map<number, ActivityStep>();
  const run: JobRunSteps = { steps: [] };
  for (const event of history.events ?? []) {
    const at = tsToMs(event.eventTime);
    const type = event.eventType;
    if (type === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED) {
      run.startedAt = at;
    } else if (type !== null && type !== undefined && CLOSED.has(type)) {
      run.closedAt = at;
    } else if (type === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
      const attributes = event.activityTaskScheduledEventAttributes;
      const step: ActivityStep = {
        activity: attributes?.activityType?.name ?? '?',
        taskQueue: attributes?.taskQueue?.name ?? '?',
        scheduledAt: at,
      };
      byScheduledId.set(Number(event.eventId), step);
      run.steps.push(step);
    } else if (type === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) {
      const attributes = event.activityTaskStartedEventAttributes;
      const step = byScheduledId.get(Number(attributes?.scheduledEventId));
      if (!step) continue;
      step.startedAt = at;
      step.attempt = attributes?.attempt ?? 1;
      const timeout = attributes?.lastFailure?.timeoutFailureInfo?.timeoutType;
      if (timeout !== undefined && timeout !== null) step.timedOutBefore = timeout;
    } else {
      const scheduledEventId =
        event.activityTaskCompletedEventAttributes?.scheduledEventId ??
        event.activityTaskFailedEventAttributes?.scheduledEventId ??
        event.activityTaskTimedOutEventAttributes?.scheduledEventId ??
        event.activityTaskCanceledEventAttributes?.scheduledEventId;
      const step = scheduledEventId !== undefined && scheduledEventId !== null ? byScheduledId.get(Number(scheduledEventId)) : undefined;
      if (!step) continue;
      step.closedAt = at;
      if (type !== EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) continue;
      step.completed = true;
      const result = event.activityTaskCompletedEventAttributes?.result?.payloads?.[0];
      if (result) step.result = result;
    }
  }
  return run;
}
