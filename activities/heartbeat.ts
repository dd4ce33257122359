import { Context } from '@temporalio/activity';

/**
 * Heartbeats while `work` runs, so a killed worker is noticed within the heartbeat timeout instead of the
 * start-to-close timeout. The SDK throttles heartbeats itself; the interval only needs to beat the timeout.
 */
export async function withHeartbeats<T>(work: (signal: AbortSignal) => Promise<T>, intervalMs = 2_000): Promise<T> {
  const context = Context.current();
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), intervalMs);
  try {
    return await work(context.cancellationSignal);
  } finally {
    clearInterval(timer);
  }
}
