import { defineJobType } from '../job-type';
import { digestContentPrefix } from './object-prefix';
import { TicketsDigest } from './digest';
import { TICKETS_LIMITS } from './ticket';
import { TICKETS_JSON_LINES } from './tickets-jsonl';

/** A day of support tickets (JSONL) summarised into themes, counts, urgent tickets and a narrative; often scheduled. */
export const ticketsDigestJobType = defineJobType({
  name: 'tickets.digest',
  summary: 'A day of support tickets (JSONL, one ticket per line) summarised into themes, counts, urgent tickets and a narrative.',
  input: { kind: 'file', accepts: [{ contentType: 'text/plain', maxBytes: TICKETS_LIMITS.maxBytes, jsonLines: TICKETS_JSON_LINES }] },
  workflowType: 'ticketsDigestWorkflow',
  priorities: ['bulk', 'interactive'],
  // Nobody waits on a digest: it runs on the bulk queue unless the client asks otherwise.
  defaultPriority: 'bulk',
  steps: ['prepareTicketBatches', 'summariseTicketBatch', 'writeTicketDigest'],
  result: TicketsDigest,
  review: { kind: 'none' },
  webhook: { includesResult: true },
  reviewer: {
    title: 'Tickets digest',
    showsDocument: false,
    sections: [
      {
        heading: 'Digest',
        from: 'result',
        fields: [
          { label: 'Tickets', path: 'ticketCount' },
          { label: 'Urgent', path: 'urgentCount' },
          { label: 'Narrative', path: 'narrative' },
        ],
      },
    ],
  },
  objects: { contentPrefix: (tenantId, sha256) => `${digestContentPrefix(tenantId, sha256)}.` },
});

export const TICKETS_DIGEST = ticketsDigestJobType.name;
export const TICKETS_DIGEST_WORKFLOW = ticketsDigestJobType.workflowType;
export const TICKETS_DIGEST_DEFAULT_PRIORITY = ticketsDigestJobType.defaultPriority;

/** Bounds on the model work of one digest: prompt size per call, and calls in flight at once for one job. */
export const TICKETS_DIGEST_BATCHING = {
  maxBatchCharacters: 48_000,
  maxBatchTickets: 400,
  parallelBatches: 4,
} as const;
