import type { ModelStepDeps } from '../call-model-on-text';
import { createPrepareTicketBatches } from './prepare-ticket-batches';
import { createSummariseTicketBatch } from './summarise-ticket-batch';
import { createWriteTicketDigest } from './write-ticket-digest';

/** The `tickets.digest` activities: read and batch (map input), summarise each batch (map), write the digest (reduce). */
export function createTicketsDigestActivities(deps: ModelStepDeps) {
  return {
    prepareTicketBatches: createPrepareTicketBatches({ store: deps.store }),
    summariseTicketBatch: createSummariseTicketBatch(deps),
    writeTicketDigest: createWriteTicketDigest(deps),
  };
}

export type TicketsDigestActivities = ReturnType<typeof createTicketsDigestActivities>;
