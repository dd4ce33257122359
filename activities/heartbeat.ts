import { Context } from '@temporalio/activity';

/**
 * Heartbeats while `work` runs, so a killed worker is noticed within the heartbeat timeout instead of the
 * start-to-close timeout. The timeout runs from the activity's start, so the first beat is due only after one
 * interval: work that ends sooner (a fast model call) costs the server no heartbeat write at all. The SDK throttles
 * heartbeats itself; the interval only needs to beat the timeout.
 */
export async function withHeartbeats<T>(work: (signal: AbortSignal) => Promise<T>, intervalMs = 2_000): Promise<T> {
  const context = Context.current();
  const timer = setInterval(() => context.heartbeat(), intervalMs);
  try {
    return await work(context.cancellationSignal);
  } finally {
    clearInterval(timer);
  }
}
