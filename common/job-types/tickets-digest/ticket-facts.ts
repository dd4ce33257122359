import type { TicketFacts } from './digest-merge';
import type { TicketCounts } from './digest';
import { TICKET_PRIORITIES, type Ticket } from './ticket';

const NONE = '-';

/** The exact figures of a day of tickets, read from the file itself. */
export function ticketFacts(tickets: readonly Ticket[]): TicketFacts {
  const byPriority = Object.fromEntries(TICKET_PRIORITIES.map((priority) => [priority, 0])) as TicketCounts['byPriority'];
  const byChannel: Record<string, number> = {};
  const byStatus: Record<string, number> = {};
  let first = Infinity;
  let last = -Infinity;
  for (const ticket of tickets) {
    byPriority[ticket.priority] += 1;
    byChannel[ticket.channel ?? NONE] = (byChannel[ticket.channel ?? NONE] ?? 0) + 1;
    byStatus[ticket.status ?? NONE] = (byStatus[ticket.status ?? NONE] ?? 0) + 1;
    const at = Date.parse(ticket.createdAt);
    first = Math.min(first, at);
    last = Math.max(last, at);
  }
  return {
    tickets: tickets.map((ticket) => ({ id: ticket.id, priority: ticket.priority, subject: ticket.subject })),
    counts: { byPriority, byChannel, byStatus },
    firstTicketAt: new Date(first).toISOString(),
    lastTicketAt: new Date(last).toISOString(),
  };
}
