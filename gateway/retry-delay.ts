/** Temporal retries sooner than this add load without a chance of tokens having come back. */
const MIN_RETRY_DELAY_MS = 250;

/**
 * When a refused call should come back: when the tokens exist, spread by up to a fifth of the wait (at least
 * 250 ms) so the calls refused together do not all return in the same millisecond and fight over one refill.
 */
export function retryDelayAfterDenial(waitMs: number, random: () => number = Math.random): number {
  const spread = Math.max(MIN_RETRY_DELAY_MS, waitMs * 0.2);
  return Math.max(MIN_RETRY_DELAY_MS, Math.ceil(waitMs + random() * spread));
}
