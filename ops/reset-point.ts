import type { temporal } from '@temporalio/proto';
import { type ActivityStep, isActivityStep } from '../common/job-steps';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

export interface ResetPoint {
  /** The WorkflowTaskCompleted event to reset to (ResetWorkflowExecutionRequest.workflow_task_finish_event_id). */
  eventId: number;
  /** The step that runs again first; absent when no activity failed (a workflow bug: the last task runs again). */
  step?: ActivityStep;
  explanation: string;
}

interface Scheduled {
  eventId: number;
  activityType: string;
  /** The workflow task whose completion scheduled it. */
  workflowTaskCompletedEventId: number;
}

const id = (value: unknown): number => Number(value ?? 0);

/**
 * Where to reset a closed, failed job so that finished steps keep their results and only the failed step and
 * those after it run again (Temporal's ResetWorkflowExecution, docs.temporal.io/cli/workflow#reset): the workflow task that first scheduled the failed step after the
 * step before it completed. Resetting to that task's completion replays everything up to it from history and
 * makes the workflow decide again, on the code the workers now run.
 *
 * "First" matters: a step may have been scheduled several times (schema-invalid answers asked again, or an
 * operator's `retry` of a dead letter); the whole step runs again, and the `retry`/`abandon` Updates that the
 * server re-applies after the reset point are refused by their validators, because the job is not parked there.
 */
export function findResetPoint(events: HistoryEvent[], failedStep?: ActivityStep): ResetPoint | undefined {
  const scheduled = new Map<number, Scheduled>();
  const completedOther: Array<{ eventId: number; activityType: string }> = [];
  const failures: Scheduled[] = [];
  let lastWorkflowTaskCompleted: number | undefined;

  for (const event of events) {
    const eventId = id(event.eventId);
    const schedule = event.activityTaskScheduledEventAttributes;
    if (schedule) {
      scheduled.set(eventId, {
        eventId,
        activityType: schedule.activityType?.name ?? '',
        workflowTaskCompletedEventId: id(schedule.workflowTaskCompletedEventId),
      });
    }
    const completedFrom = event.activityTaskCompletedEventAttributes?.scheduledEventId;
    if (completedFrom !== undefined && completedFrom !== null) {
      const origin = scheduled.get(id(completedFrom));
      if (origin) completedOther.push({ eventId, activityType: origin.activityType });
    }
    const failedFrom =
      event.activityTaskFailedEventAttributes?.scheduledEventId ?? event.activityTaskTimedOutEventAttributes?.scheduledEventId;
    if (failedFrom !== undefined && failedFrom !== null) {
      const origin = scheduled.get(id(failedFrom));
      if (origin) failures.push(origin);
    }
    if (event.workflowTaskCompletedEventAttributes) lastWorkflowTaskCompleted = eventId;
  }

  const activityType = failedStep ?? failures.at(-1)?.activityType;
  const lastFailure = [...failures].reverse().find((failure) => failure.activityType === activityType);
  if (activityType && lastFailure) {
    // The previous step's completion bounds the search: everything of this step after it is one attempt at it.
    const previousStepDone = completedOther
      .filter((done) => done.activityType !== activityType && done.eventId < lastFailure.eventId)
      .reduce((latest, done) => Math.max(latest, done.eventId), 0);
    const first = [...scheduled.values()].find(
      (schedule) => schedule.activityType === activityType && schedule.eventId > previousStepDone,
    );
    if (first && first.workflowTaskCompletedEventId > 0) {
      const step = isActivityStep(activityType) ? activityType : undefined;
      return {
        eventId: first.workflowTaskCompletedEventId,
        ...(step ? { step } : {}),
        explanation: `${step ?? activityType} runs again from event ${first.workflowTaskCompletedEventId} (the task that scheduled it at event ${first.eventId}); earlier steps keep their results`,
      };
    }
  }
  if (lastWorkflowTaskCompleted === undefined) return undefined;
  return {
    eventId: lastWorkflowTaskCompleted,
    explanation: `no step failed; the last workflow task (event ${lastWorkflowTaskCompleted}) runs again on the current code`,
  };
}
