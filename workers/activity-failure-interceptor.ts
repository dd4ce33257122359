import { Context } from '@temporalio/activity';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, Next } from '@temporalio/worker';
import { toApplicationFailure } from '../lib/failures';
import { type OutageAttempts, outageAttemptsAfter } from '../lib/outage-attempts';

/** Translates every activity's typed errors at one boundary, so activities just throw what went wrong. */
export class ActivityFailureInterceptor implements ActivityInboundCallsInterceptor {
  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    try {
      return await next(input);
    } catch (error) {
      const context = Context.current();
      const budgetUnavailableAttempts = outageAttemptsAfter(error, context.info.heartbeatDetails);
      // The SDK flushes a failed attempt's last heartbeat and the server hands it to the next attempt: the count of
      // attempts a Redis outage took rides along (no activity reads heartbeat details of its own).
      if (budgetUnavailableAttempts > 0) context.heartbeat({ budgetUnavailableAttempts } satisfies OutageAttempts);
      throw toApplicationFailure(error, context.info.attempt, budgetUnavailableAttempts > 0 ? { budgetUnavailableAttempts } : {});
    }
  }
}
