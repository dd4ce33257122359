import { Context } from '@temporalio/activity';
import type { TicketsDigestActivities } from '../../activities/tickets-digest';
import type { TicketsDigest } from '../../common/job-types/tickets-digest/digest';
import { usageFor } from './lane-usage';

/** A digest of ten tickets summarised in `batches` batches. */
export const sampleDigest = (batches: number): TicketsDigest => ({
  ticketCount: 10,
  firstTicketAt: '2026-12-02T00:00:00.000Z',
  lastTicketAt: '2026-12-02T23:00:00.000Z',
  counts: { byPriority: { low: 2, normal: 5, high: 2, urgent: 1 }, byChannel: { email: 10 }, byStatus: { open: 10 } },
  themes: [{ name: 'billing', count: 10, share: 1, exampleTicketIds: ['T-1'] }],
  unthemedCount: 0,
  urgentCount: 1,
  urgent: [{ id: 'T-1', subject: 'Down', priority: 'urgent', reason: 'urgent priority' }],
  narrative: 'Ten tickets.',
  batches,
});

/** tickets.digest's steps over `batches` batches of tickets, every one answered; `summarised` counts calls per batch. */
export function fakeDigestActivities(batches: number) {
  const batchKeys = Array.from({ length: batches }, (_, index) => `digests/test/abc/batch-${index}.txt`);
  const summarised = new Map<string, number>();
  const attempt = () => Context.current().info.attempt;
  const activities: TicketsDigestActivities = {
    async prepareTicketBatches() {
      return { ticketCount: 10, factsKey: 'digests/test/abc/facts.json', batchKeys, attempt: attempt() };
    },
    async summariseTicketBatch(input) {
      summarised.set(input.batchKey, (summarised.get(input.batchKey) ?? 0) + 1);
      return { summaryKey: `${input.batchKey}.summary.json`, themes: 1, urgent: 0, usage: usageFor(input), attempt: attempt() };
    },
    async writeTicketDigest(input) {
      return { digest: sampleDigest(input.summaryKeys.length), digestKey: 'digests/test/abc/digest.json', usage: usageFor(input), attempt: attempt() };
    },
  };
  return { activities, batchKeys, summarised };
}
