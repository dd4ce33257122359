import { type ActivityDeps, modelStepDeps } from '../activity-deps';
import { createPrepareTicketBatches } from './prepare-ticket-batches';
import { createSummariseTicketBatch } from './summarise-ticket-batch';
import { createWriteTicketDigest } from './write-ticket-digest';

/** The `tickets.digest` activities: read and batch (map input), summarise each batch (map), write the digest (reduce). */
export function createTicketsDigestActivities(deps: Pick<ActivityDeps, 'store' | 'gateway' | 'config' | 'batchLane'>) {
  const digest = modelStepDeps(deps, deps.config.anthropic.digestModel);
  return {
    prepareTicketBatches: createPrepareTicketBatches({ store: deps.store }),
    summariseTicketBatch: createSummariseTicketBatch(digest),
    writeTicketDigest: createWriteTicketDigest(digest),
  };
}

export type TicketsDigestActivities = ReturnType<typeof createTicketsDigestActivities>;
