import { MAX_LISTED_URGENT, MAX_THEME_EXAMPLES, type TicketBatchSummary, type TicketCounts, type TicketsDigest } from './digest';
import { TICKET_PRIORITIES } from './ticket';

/** The few facts of each ticket the digest names, in file order. */
export interface IndexedTicket {
  id: string;
  priority: string;
  subject: string;
}

export interface TicketFacts {
  tickets: readonly IndexedTicket[];
  counts: TicketCounts;
  firstTicketAt: string;
  lastTicketAt: string;
}

export type MergedDigest = Omit<TicketsDigest, 'narrative'>;

const normalTheme = (name: string): string => name.trim().toLowerCase().replace(/\s+/g, ' ');
const priorityRank = (priority: string): number => {
  const index = TICKET_PRIORITIES.indexOf(priority as (typeof TICKET_PRIORITIES)[number]);
  return index === -1 ? 0 : index;
};

/**
 * Joins the batches' answers into one digest, counting in code rather than trusting the model with sums: a ticket
 * counts once (under the first theme that claims it), ids that are not in the file are dropped, and themes named
 * alike in different batches are one theme.
 */
export function mergeBatchSummaries(facts: TicketFacts, summaries: readonly TicketBatchSummary[]): MergedDigest {
  const byId = new Map(facts.tickets.map((ticket, index) => [ticket.id, { ticket, index }]));
  const themed = new Set<string>();
  const themes = new Map<string, string[]>();
  const urgentReasons = new Map<string, string>();
  for (const summary of summaries) {
    for (const theme of summary.themes) {
      const name = normalTheme(theme.name);
      if (name === '') continue;
      const members = themes.get(name) ?? [];
      for (const id of theme.ticketIds) {
        if (!byId.has(id) || themed.has(id)) continue;
        themed.add(id);
        members.push(id);
      }
      themes.set(name, members);
    }
    for (const urgent of summary.urgent) {
      if (byId.has(urgent.id) && !urgentReasons.has(urgent.id)) urgentReasons.set(urgent.id, urgent.reason);
    }
  }
  const ticketCount = facts.tickets.length;
  const themeList = [...themes.entries()]
    .filter(([, ids]) => ids.length > 0)
    .map(([name, ids]) => ({
      name,
      count: ids.length,
      share: ticketCount === 0 ? 0 : Math.round((ids.length / ticketCount) * 1000) / 1000,
      exampleTicketIds: ids.slice(0, MAX_THEME_EXAMPLES),
    }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  const urgent = [...urgentReasons.entries()]
    .map(([id, reason]) => ({ entry: byId.get(id)!, reason }))
    .sort((a, b) => priorityRank(b.entry.ticket.priority) - priorityRank(a.entry.ticket.priority) || a.entry.index - b.entry.index)
    .map(({ entry, reason }) => ({ id: entry.ticket.id, subject: entry.ticket.subject, priority: entry.ticket.priority, reason }));
  return {
    ticketCount,
    firstTicketAt: facts.firstTicketAt,
    lastTicketAt: facts.lastTicketAt,
    counts: facts.counts,
    themes: themeList,
    unthemedCount: ticketCount - themed.size,
    urgentCount: urgent.length,
    urgent: urgent.slice(0, MAX_LISTED_URGENT),
    batches: summaries.length,
  };
}

/**
 * The merged figures as the narrative prompt's document: one fact per line, `kind | …`, small however many
 * tickets there were (themes and listed urgent tickets are bounded).
 */
export function digestFactsText(merged: MergedDigest): string {
  const priorities = TICKET_PRIORITIES.map((priority) => `${priority} ${merged.counts.byPriority[priority]}`).join(', ');
  return [
    `tickets | ${merged.ticketCount} | ${merged.firstTicketAt} | ${merged.lastTicketAt}`,
    `priorities | ${priorities}`,
    ...merged.themes.map((theme) => `theme | ${theme.name} | ${theme.count}`),
    `unthemed | ${merged.unthemedCount}`,
    `urgent-count | ${merged.urgentCount}`,
    ...merged.urgent.slice(0, 10).map((ticket) => `urgent | ${ticket.id} | ${ticket.subject.replaceAll('|', '/')}`),
  ].join('\n');
}
