import { BudgetUnavailableError } from '../common/errors';

/** Socket errors of a Redis server that is down, restarting or unreachable. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Redis's own replies while it cannot serve yet: loading its data after a restart, a failover under way, a script
 * hogging the server. Each passes when the server is back, like a refused connection.
 */
const TRANSIENT_REPLIES = /^(LOADING|BUSY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|READONLY)\b/;

/**
 * What ioredis rejects a command with when the server is away: the offline queue gave up after maxRetriesPerRequest
 * reconnects (MaxRetriesPerRequestError), the connection closed under the command, or offline queueing is off. Its
 * classes are not all exported, so names, codes and the messages it uses (ioredis/built/utils CONNECTION_CLOSED_ERROR_MSG)
 * are what is matched.
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  return (
    error.message === 'Connection is closed.' ||
    error.message.startsWith("Stream isn't writeable") ||
    error.message === 'Command timed out' ||
    TRANSIENT_REPLIES.test(error.message)
  );
}

/**
 * The one place the budget's and the spend store's Redis failures become typed: an outage is BudgetUnavailableError
 * (retried, and never a dead letter: common/errors.ts), anything else (a script bug, a wrong reply) is rethrown as it
 * was, so it stays loud.
 */
export function budgetUnavailableOr(error: unknown, what: string): unknown {
  if (!isRedisUnavailable(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new BudgetUnavailableError(`the ${what} cannot be reached (${reason}); the call waits until Redis answers again`, {
    cause: error,
  });
}
