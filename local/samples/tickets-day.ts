import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ticket } from '../../common/job-types/tickets-digest/ticket';
import { createRandom, type Random } from '../simulator/random';

/** What customers write about, by theme: a subject and an opening line each (the simulator themes them by keyword). */
const TOPICS: ReadonlyArray<{ weight: number; subjects: readonly string[]; bodies: readonly string[] }> = [
  {
    weight: 28,
    subjects: ['Charged twice this month', 'Refund for cancelled order', 'Invoice shows the wrong VAT', 'Payment declined at checkout'],
    bodies: ['My card was charged twice for the same subscription.', 'I cancelled last week and still have no refund.', 'The invoice lists the old company address.'],
  },
  {
    weight: 20,
    subjects: ['Cannot log in since yesterday', 'Password reset email never arrives', 'Locked out after 2FA change'],
    bodies: ['The login page says my password is wrong.', 'I reset the password three times, no email.', 'My phone changed and 2FA codes fail.'],
  },
  {
    weight: 18,
    subjects: ['Where is my parcel?', 'Delivery marked done but nothing came', 'Tracking number does not work'],
    bodies: ['The courier says delivered, the door says otherwise.', 'Tracking has not moved for five days.', 'The package arrived damaged.'],
  },
  {
    weight: 6,
    subjects: ['Dashboard is down for our whole team', 'API unavailable in eu-west'],
    bodies: ['Nobody in the office can reach the dashboard since 9:00.', 'Every call returns 503 since this morning.'],
  },
  {
    weight: 14,
    subjects: ['Export crashes on large files', 'Error 500 when saving settings', 'Search results are broken'],
    bodies: ['The app shows an error and closes.', 'Saving the form is not working on Firefox.', 'Results stop after page two.'],
  },
  {
    weight: 8,
    subjects: ['Feature: dark mode', 'Would like CSV export of reports', 'Suggestion for the mobile app'],
    bodies: ['It would help a lot at night.', 'We would like to export monthly reports.', 'A widget for the home screen, maybe.'],
  },
  {
    weight: 6,
    subjects: ['Question about your office hours', 'Thanks for the quick help', 'Change of contact person'],
    bodies: ['Are you open on public holidays?', 'Just wanted to say thank you.', 'Please send future mails to our new manager.'],
  },
];

const PRIORITIES: ReadonlyArray<[Ticket['priority'], number]> = [
  ['low', 30],
  ['normal', 45],
  ['high', 20],
  ['urgent', 5],
];
const CHANNELS = ['email', 'chat', 'phone', 'web'] as const;
const STATUSES = ['open', 'pending', 'solved'] as const;

function weighted<T>(random: Random, rows: ReadonlyArray<readonly [T, number]>): T {
  const total = rows.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random.next() * total;
  for (const [value, weight] of rows) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return (rows.at(-1) as readonly [T, number])[0];
}

const pick = <T>(random: Random, values: readonly T[]): T => values[Math.floor(random.next() * values.length)] as T;

/** The same day of tickets for the same arguments, so the demo's file (and its idempotency key) never changes. */
export function ticketsOfDay(options: { day: string; count: number; seed?: number }): Ticket[] {
  const random = createRandom(options.seed ?? 20261202);
  const start = Date.parse(`${options.day}T00:00:00Z`);
  const dayMs = 24 * 60 * 60 * 1000;
  const compactDay = options.day.replaceAll('-', '');
  const topics = TOPICS.map((topic) => [topic, topic.weight] as const);
  return Array.from({ length: options.count }, (_, index) => {
    const topic = weighted(random, topics);
    return {
      id: `T-${compactDay}-${String(index + 1).padStart(5, '0')}`,
      createdAt: new Date(start + Math.floor((index / options.count) * dayMs)).toISOString(),
      priority: weighted(random, PRIORITIES),
      channel: pick(random, CHANNELS),
      status: pick(random, STATUSES),
      customer: `customer-${Math.floor(random.next() * 900) + 100}`,
      subject: pick(random, topic.subjects),
      body: pick(random, topic.bodies),
    };
  });
}

export const ticketsJsonl = (tickets: readonly Ticket[]): string => tickets.map((ticket) => JSON.stringify(ticket)).join('\n') + '\n';

/** The demo's day: 3,000 tickets of 2026-12-02, written as `<outDir>/tickets-2026-12-02.jsonl`. */
export const DEMO_TICKETS_DAY = { day: '2026-12-02', count: 3000 } as const;

export async function writeDemoTickets(outDir: string): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const path = join(outDir, `tickets-${DEMO_TICKETS_DAY.day}.jsonl`);
  await writeFile(path, ticketsJsonl(ticketsOfDay(DEMO_TICKETS_DAY)));
  return path;
}
