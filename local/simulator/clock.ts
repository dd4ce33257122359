/** Milliseconds since the epoch; injected so rate-limit arithmetic can be tested without sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
