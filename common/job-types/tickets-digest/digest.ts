import { type Static, Type } from '@sinclair/typebox';
import { closed, count, dateTime } from '../../api-contract/schema-kit';
import { TICKET_PRIORITIES } from './ticket';

const ticketId = () => Type.String({ minLength: 1, maxLength: 100 });
const themeName = () => Type.String({ minLength: 1, maxLength: 60 });

/** What the model answers for one batch of ticket lines: every ticket it could place under a theme, and the urgent ones. */
export const TicketBatchSummary = closed({
  themes: Type.Array(
    closed({
      name: themeName(),
      ticketIds: Type.Array(ticketId(), { description: 'Every ticket of this batch under the theme.' }),
    }),
    { maxItems: 40, description: 'Short lower-case theme names, e.g. "billing", "login".' },
  ),
  urgent: Type.Array(closed({ id: ticketId(), reason: Type.String({ minLength: 1, maxLength: 300 }) }), {
    description: 'Tickets that need a person today, with why.',
  }),
});
export type TicketBatchSummary = Static<typeof TicketBatchSummary>;

/** What the model answers for the merged figures: a few sentences for a support lead. */
export const DigestNarrative = closed({ narrative: Type.String({ minLength: 1, maxLength: 2000 }) });
export type DigestNarrative = Static<typeof DigestNarrative>;

/** Most urgent tickets listed by name in the result; the rest are counted. */
export const MAX_LISTED_URGENT = 50;
export const MAX_THEME_EXAMPLES = 5;

const countsBy = (description: string) => Type.Record(Type.String(), count(), { description });

/** The result of a `tickets.digest` job. Counts are computed from the file; themes and urgency come from the model. */
export const TicketsDigest = closed({
  ticketCount: count(),
  firstTicketAt: dateTime(),
  lastTicketAt: dateTime(),
  counts: closed({
    byPriority: closed(Object.fromEntries(TICKET_PRIORITIES.map((priority) => [priority, count()])) as Record<
      (typeof TICKET_PRIORITIES)[number],
      ReturnType<typeof count>
    >),
    byChannel: countsBy('Tickets per channel ("-" when the export had none).'),
    byStatus: countsBy('Tickets per status ("-" when the export had none).'),
  }),
  themes: Type.Array(
    closed({
      name: themeName(),
      count: count(),
      share: Type.Number({ minimum: 0, maximum: 1 }),
      exampleTicketIds: Type.Array(ticketId(), { maxItems: MAX_THEME_EXAMPLES }),
    }),
    { description: 'Largest first.' },
  ),
  unthemedCount: count(),
  urgentCount: count(),
  urgent: Type.Array(
    closed({ id: ticketId(), subject: Type.String(), priority: Type.String(), reason: Type.String() }),
    { maxItems: MAX_LISTED_URGENT, description: 'Urgent priority first, then in file order.' },
  ),
  narrative: Type.String({ minLength: 1, maxLength: 2000 }),
  batches: Type.Integer({ minimum: 1, description: 'Model calls the themes took (one per batch of ticket lines).' }),
});
export type TicketsDigest = Static<typeof TicketsDigest>;

/** What the file says without a model: exact counts, computed once when the file is read. */
export type TicketCounts = TicketsDigest['counts'];
