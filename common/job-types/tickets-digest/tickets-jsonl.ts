import type { JsonLines } from '../job-type';
import { parseJsonLines } from '../json-lines';
import { Ticket, TICKETS_LIMITS } from './ticket';

/** The tickets file as the definition describes it: one ticket per line, unique ids (the digest names tickets by id). */
export const TICKETS_JSON_LINES: JsonLines = { schema: Ticket, maxLines: TICKETS_LIMITS.maxTickets, uniqueBy: 'id' };

export type TicketsCheck =
  | { ok: true; tickets: Ticket[] }
  | { ok: false; kind: 'invalid'; line: number; message: string }
  | { ok: false; kind: 'too_many'; limit: number };

/** The tickets of a JSONL file, each line checked against the Ticket schema, or the first bad line. */
export function parseTicketsJsonl(text: string, maxTickets: number = TICKETS_LIMITS.maxTickets): TicketsCheck {
  const checked = parseJsonLines(text, { ...TICKETS_JSON_LINES, maxLines: maxTickets });
  return checked.ok ? { ok: true, tickets: checked.lines as Ticket[] } : checked;
}
