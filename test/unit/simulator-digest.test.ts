import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { validateDigestNarrative, validateTicketBatchSummary } from '../../common/job-types/tickets-digest/digest-validation';
import { digestFactsText, mergeBatchSummaries } from '../../common/job-types/tickets-digest/digest-merge';
import { ticketFacts } from '../../common/job-types/tickets-digest/ticket-facts';
import { ticketLine } from '../../common/job-types/tickets-digest/ticket-lines';
import type { Ticket } from '../../common/job-types/tickets-digest/ticket';
import { ticketsOfDay } from '../../local/samples/tickets-day';
import { answerFor } from '../../local/simulator/model';

const ticket = (id: string, priority: Ticket['priority'], subject: string, body = ''): Ticket => ({
  id,
  createdAt: '2026-12-02T09:00:00Z',
  priority,
  subject,
  body,
});

const toolInput = (tool: string, documentText: string): unknown => {
  const answer = answerFor(tool, documentText);
  assert.equal(answer.kind, 'tool_use');
  return (answer as { input: unknown }).input;
};

describe('the simulator answers the digest prompts from their input', () => {
  test('when given ticket lines, then each ticket is under its keyword theme and the urgent priority is flagged', () => {
    const tickets = [
      ticket('T-1', 'urgent', 'Charged twice', 'my card was charged twice'),
      ticket('T-2', 'low', 'Password reset never arrives'),
      ticket('T-3', 'high', 'Hello', 'just saying thanks'),
      ticket('T-4', 'urgent', 'Dashboard is down', 'nobody can reach it'),
    ];
    const input = toolInput('summarise_tickets', tickets.map(ticketLine).join('\n'));
    const checked = validateTicketBatchSummary(input);
    assert.ok(checked.ok, JSON.stringify(!checked.ok && checked.errors));
    assert.deepEqual(
      Object.fromEntries(checked.value.themes.map((theme) => [theme.name, theme.ticketIds])),
      { billing: ['T-1'], login: ['T-2'], other: ['T-3'], outage: ['T-4'] },
    );
    assert.deepEqual(checked.value.urgent.map((urgent) => urgent.id), ['T-1', 'T-4']);
  });

  test('when given the merged facts, then the narrative names the volume, the largest theme and the first urgent ticket', () => {
    const tickets = ticketsOfDay({ day: '2026-12-02', count: 200, seed: 5 });
    const summary = toolInput('summarise_tickets', tickets.map(ticketLine).join('\n'));
    assert.ok(validateTicketBatchSummary(summary).ok);
    const merged = mergeBatchSummaries(ticketFacts(tickets), [summary as never]);
    const input = toolInput('write_digest_narrative', digestFactsText(merged));
    const checked = validateDigestNarrative(input);
    assert.ok(checked.ok);
    const [largest] = merged.themes;
    assert.ok(largest);
    assert.match(checked.value.narrative, /^200 tickets arrived between 2026-12-02T/);
    assert.ok(checked.value.narrative.includes(`${largest.name} (${largest.count})`), checked.value.narrative);
    const firstUrgent = merged.urgent[0];
    assert.ok(firstUrgent, 'a generated day has urgent tickets');
    assert.ok(checked.value.narrative.includes(`${merged.urgentCount} tickets need a person today, first ${firstUrgent.id}`));
  });

  test('when the day is generated twice with the same seed, then it is the same day; another seed gives another', () => {
    const once = ticketsOfDay({ day: '2026-12-02', count: 50, seed: 9 });
    assert.deepEqual(ticketsOfDay({ day: '2026-12-02', count: 50, seed: 9 }), once);
    assert.notDeepEqual(ticketsOfDay({ day: '2026-12-02', count: 50, seed: 10 }), once);
    assert.equal(new Set(once.map((t) => t.id)).size, 50);
  });
});
