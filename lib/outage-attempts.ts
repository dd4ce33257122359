import { BudgetUnavailableError } from '../common/errors';

/** What an activity heartbeats when it fails, so the next attempt knows (Temporal hands it the last details). */
export interface OutageAttempts {
  budgetUnavailableAttempts: number;
}

/**
 * The attempts of one activity that met a Redis outage, this one included: the count the previous attempt left in
 * its last heartbeat's details, plus one if this attempt failed the same way. Temporal's attempt counter cannot tell
 * an outage from a fault, so this count is what lets the job give such a step its attempts back.
 */
export function outageAttemptsAfter(error: unknown, heartbeatDetails: unknown): number {
  const carried = (heartbeatDetails as Partial<OutageAttempts> | undefined)?.budgetUnavailableAttempts;
  const before = typeof carried === 'number' && Number.isInteger(carried) && carried > 0 ? carried : 0;
  return before + (error instanceof BudgetUnavailableError ? 1 : 0);
}
