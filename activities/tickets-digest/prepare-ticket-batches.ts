import { Context } from '@temporalio/activity';
import { DocumentTooLargeError, InvalidDocumentError } from '../../common/errors';
import { TICKETS_DIGEST_BATCHING } from '../../common/job-types/tickets-digest/definition';
import { ticketFacts } from '../../common/job-types/tickets-digest/ticket-facts';
import { batchLines, ticketLine } from '../../common/job-types/tickets-digest/ticket-lines';
import { parseTicketsJsonl } from '../../common/job-types/tickets-digest/tickets-jsonl';
import type { ObjectStore } from '../../lib/object-store';
import { withHeartbeats } from '../heartbeat';
import type { PrepareTicketBatchesInput, PrepareTicketBatchesResult } from './contracts';
import { digestObjectKeys } from './object-keys';

/**
 * Reads the JSONL file once: the exact counts, and the tickets as compact lines cut into bounded batches, all
 * written to S3 under keys derived from the file's content, so a retry rewrites the same objects.
 */
export function createPrepareTicketBatches(deps: { store: ObjectStore }) {
  return async function prepareTicketBatches(input: PrepareTicketBatchesInput): Promise<PrepareTicketBatchesResult> {
    const { attempt } = Context.current().info;
    return withHeartbeats(async () => {
      const text = (await deps.store.getBytes(input.tickets.key)).toString('utf8');
      // The API checked the file on the way in; a file that got here another way is refused as plainly.
      const parsed = parseTicketsJsonl(text);
      if (!parsed.ok) {
        if (parsed.kind === 'too_many') throw new DocumentTooLargeError(`the file has more than ${parsed.limit} tickets`);
        throw new InvalidDocumentError(parsed.message);
      }
      const batches = batchLines(
        parsed.tickets.map(ticketLine),
        TICKETS_DIGEST_BATCHING.maxBatchCharacters,
        TICKETS_DIGEST_BATCHING.maxBatchTickets,
      );
      const prefix = digestObjectKeys.batchesOf(input.tenantId, input.tickets.sha256);
      const factsKey = digestObjectKeys.facts(prefix);
      await deps.store.put(factsKey, JSON.stringify(ticketFacts(parsed.tickets)), { contentType: 'application/json' });
      const batchKeys: string[] = [];
      for (const [index, lines] of batches.entries()) {
        const key = digestObjectKeys.batch(prefix, index);
        await deps.store.put(key, lines.join('\n'), { contentType: 'text/plain; charset=utf-8' });
        batchKeys.push(key);
      }
      return { ticketCount: parsed.tickets.length, factsKey, batchKeys, attempt };
    });
  };
}
