import { parseTicketLine } from '../../../common/job-types/tickets-digest/ticket-lines';
import { themeOf } from './ticket-themes';

/**
 * `summarise_tickets`: every ticket line under its keyword theme (ticket-themes.ts), and as urgent every ticket
 * whose priority field says `urgent`. Lines that are not ticket lines are skipped, as a model would.
 */
export function summariseTickets(documentText: string): object {
  const themes = new Map<string, string[]>();
  const urgent: Array<{ id: string; reason: string }> = [];
  for (const line of documentText.split('\n')) {
    const ticket = parseTicketLine(line.trim());
    if (!ticket) continue;
    const theme = themeOf(ticket.subject, ticket.body);
    themes.set(theme, [...(themes.get(theme) ?? []), ticket.id]);
    if (ticket.priority === 'urgent') urgent.push({ id: ticket.id, reason: `urgent priority: ${ticket.subject}`.slice(0, 300) });
  }
  return { themes: [...themes.entries()].map(([name, ticketIds]) => ({ name, ticketIds })), urgent };
}
