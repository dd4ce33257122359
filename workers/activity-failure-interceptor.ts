import { Context } from '@temporalio/activity';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, Next } from '@temporalio/worker';
import { toApplicationFailure } from '../lib/failures';

/** Translates every activity's typed errors at one boundary, so activities just throw what went wrong. */
export class ActivityFailureInterceptor implements ActivityInboundCallsInterceptor {
  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    try {
      return await next(input);
    } catch (error) {
      throw toApplicationFailure(error, Context.current().info.attempt);
    }
  }
}
