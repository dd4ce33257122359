import { CompleteAsyncError, Context } from '@temporalio/activity';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, Next } from '@temporalio/worker';
import { type AnswerRefusals, answerRefusedAfter } from '../lib/answer-refusals';
import { toApplicationFailure } from '../lib/failures';
import { type OutageAttempts, outageAttemptsAfter } from '../lib/outage-attempts';

/** Translates every activity's typed errors at one boundary, so activities just throw what went wrong. */
export class ActivityFailureInterceptor implements ActivityInboundCallsInterceptor {
  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    try {
      return await next(input);
    } catch (error) {
      // Not a failure: the activity handed its slot back and is completed from outside (transcribe-with-callback.ts).
      if (error instanceof CompleteAsyncError) throw error;
      const context = Context.current();
      const budgetUnavailableAttempts = outageAttemptsAfter(error, context.info.heartbeatDetails);
      const answerRefused = answerRefusedAfter(error, context.info.heartbeatDetails);
      // The SDK flushes a failed attempt's last heartbeat and the server hands it to the next attempt: the count of
      // attempts a Redis outage took, and whether an answer was found wrong, ride along (no activity reads heartbeat
      // details of its own).
      if (budgetUnavailableAttempts > 0 || answerRefused) {
        context.heartbeat({
          ...(budgetUnavailableAttempts > 0 ? { budgetUnavailableAttempts } : {}),
          ...(answerRefused ? { answerRefused: true } : {}),
        } satisfies Partial<OutageAttempts & AnswerRefusals>);
      }
      throw toApplicationFailure(error, context.info.attempt, budgetUnavailableAttempts > 0 ? { budgetUnavailableAttempts } : {});
    }
  }
}
