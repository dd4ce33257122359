import type { Job } from '../../common/api-contract/job';
import type { TicketsDigest } from '../../common/job-types/tickets-digest/digest';
import type { Ticket } from '../../common/job-types/tickets-digest/ticket';
import { ticketsJsonl, ticketsOfDay } from '../../local/samples/tickets-day';
import { themeOf } from '../../local/simulator/digest/ticket-themes';
import { apiUrl, demo, submit, type ApiAnswer } from './api-client';

/**
 * A generated day of tickets, and what a digest of it must say, counted here from the tickets themselves. With
 * `idPrefix`, every ticket id starts with it: a marker the simulator's call log finds in each prompt about them.
 */
export function ticketsDay(count: number, seed: number, idPrefix = '') {
  const tickets = ticketsOfDay({ day: '2026-12-02', count, seed }).map((ticket) => ({ ...ticket, id: `${idPrefix}${ticket.id}` }));
  const themes = new Map<string, number>();
  for (const ticket of tickets) themes.set(themeOf(ticket.subject, ticket.body), (themes.get(themeOf(ticket.subject, ticket.body)) ?? 0) + 1);
  const urgent = tickets.filter((ticket: Ticket) => ticket.priority === 'urgent');
  return { tickets, bytes: new TextEncoder().encode(ticketsJsonl(tickets)), themes, urgent };
}

export const submitTickets = (bytes: Uint8Array, options: { key?: string; apiKey?: string; fields?: Record<string, string> } = {}) =>
  submit(bytes, { type: 'tickets.digest', fileName: 'tickets.jsonl', ...options });

export const digestOf = (job: Partial<Job>): TicketsDigest | undefined =>
  job.result && typeof job.result === 'object' && 'narrative' in job.result ? (job.result as TicketsDigest) : undefined;

/** One call to the schedules API, its JSON answer (or none for a 204). */
export async function schedulesApi<T = Record<string, unknown>>(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  apiKey = demo.apiKey,
): Promise<ApiAnswer<T>> {
  const response = await fetch(`${apiUrl()}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as ApiAnswer<T>['body'], headers: response.headers };
}

/** Polls until `check` returns a value (visibility and a schedule's runs are eventually consistent). */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
