import type { Ticket } from './ticket';

/**
 * The model sees each ticket as one compact line, `id | priority | channel | subject | body`, with the body cut
 * short: a day of tickets then fits a few prompts instead of a few hundred, and the subject and opening carry the
 * theme. The field separator is taken out of the values, so the line can be split back (the simulator does).
 */
export const TICKET_LINE_SEPARATOR = ' | ';
export const TICKET_LINE_BODY_CHARACTERS = 240;

const flat = (value: string, max: number): string => {
  const single = value.replace(/\s+/g, ' ').replaceAll('|', '/').trim();
  return single.length > max ? `${single.slice(0, max - 1)}…` : single;
};

export function ticketLine(ticket: Ticket): string {
  return [
    flat(ticket.id, 100),
    ticket.priority,
    flat(ticket.channel ?? '-', 50),
    flat(ticket.subject, 200),
    // An empty body would end the line in the separator, which a trimmed line loses.
    flat(ticket.body, TICKET_LINE_BODY_CHARACTERS) || '-',
  ].join(TICKET_LINE_SEPARATOR);
}

export interface TicketLineFields {
  id: string;
  priority: string;
  channel: string;
  subject: string;
  body: string;
}

/** A compact line read back; undefined for a line that is not one. */
export function parseTicketLine(line: string): TicketLineFields | undefined {
  const parts = line.split(TICKET_LINE_SEPARATOR);
  if (parts.length < 5) return undefined;
  const [id, priority, channel, subject, ...body] = parts as [string, string, string, string, ...string[]];
  return { id, priority, channel, subject, body: body.join(TICKET_LINE_SEPARATOR) };
}

/**
 * Splits the lines into batches of at most `maxCharacters` each (a line longer than that is a batch alone), so
 * every prompt stays far inside the model's context and the per-call output (one theme per ticket) stays small.
 */
export function batchLines(lines: readonly string[], maxCharacters: number, maxLines: number): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (current.length > 0 && (size + line.length + 1 > maxCharacters || current.length >= maxLines)) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(line);
    size += line.length + 1;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
