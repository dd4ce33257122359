import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { formatErrors } from '../../schema-errors';
import { Ticket, TICKETS_LIMITS } from './ticket';

const ajv = new Ajv({ allErrors: false, strict: true });
addFormats(ajv, ['date-time']);
const validateTicket = ajv.compile<Ticket>(Ticket);

export type TicketsCheck =
  | { ok: true; tickets: Ticket[] }
  | { ok: false; kind: 'invalid'; line: number; message: string }
  | { ok: false; kind: 'too_many'; limit: number };

/**
 * Reads a JSONL file of tickets: one JSON object per line, blank lines allowed. Stops at the first bad line and
 * names it (1-based), so a client fixes its export without guessing; ids must be unique because the digest
 * lists urgent tickets by id.
 */
export function parseTicketsJsonl(text: string, maxTickets: number = TICKETS_LIMITS.maxTickets): TicketsCheck {
  const tickets: Ticket[] = [];
  const seen = new Set<string>();
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const raw = (lines[index] as string).trim();
    if (raw === '') continue;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return { ok: false, kind: 'invalid', line, message: `line ${line} is not JSON (${(error as Error).message})` };
    }
    if (!validateTicket(value)) {
      const errors = formatErrors(validateTicket.errors ?? []);
      return { ok: false, kind: 'invalid', line, message: `line ${line} is not a ticket: ${errors.join('; ')}` };
    }
    if (seen.has(value.id)) return { ok: false, kind: 'invalid', line, message: `line ${line} repeats ticket id "${value.id}"` };
    seen.add(value.id);
    tickets.push(value);
    if (tickets.length > maxTickets) return { ok: false, kind: 'too_many', limit: maxTickets };
  }
  if (tickets.length === 0) return { ok: false, kind: 'invalid', line: 1, message: 'the file holds no tickets: send one JSON object per line' };
  return { ok: true, tickets };
}
