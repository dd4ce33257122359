import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { mergeBatchSummaries } from '../../common/job-types/tickets-digest/digest-merge';
import { validateTicketsDigest } from '../../common/job-types/tickets-digest/digest-validation';
import { ticketFacts } from '../../common/job-types/tickets-digest/ticket-facts';
import { batchLines, parseTicketLine, ticketLine } from '../../common/job-types/tickets-digest/ticket-lines';
import { parseTicketsJsonl } from '../../common/job-types/tickets-digest/tickets-jsonl';
import type { Ticket } from '../../common/job-types/tickets-digest/ticket';

const ticket = (id: string, overrides: Partial<Ticket> = {}): Ticket => ({
  id,
  createdAt: '2026-12-02T08:00:00Z',
  priority: 'normal',
  subject: `Subject ${id}`,
  body: 'Body',
  ...overrides,
});
const jsonl = (...values: unknown[]) => values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join('\n');

describe('parseTicketsJsonl', () => {
  test('when every line is a ticket (blank lines and unknown fields allowed), then all are read in order', () => {
    const checked = parseTicketsJsonl(jsonl(ticket('a'), '', { ...ticket('b'), assignee: 'kim' }, '   '));
    assert.ok(checked.ok);
    assert.deepEqual(checked.tickets.map((t) => t.id), ['a', 'b']);
  });

  test('when a line misses a field or has a bad value, then the first such line is named with what is wrong', () => {
    const { priority: _dropped, ...noPriority } = ticket('b');
    const checked = parseTicketsJsonl(jsonl(ticket('a'), noPriority, ticket('c', { createdAt: 'yesterday' })));
    assert.ok(!checked.ok && checked.kind === 'invalid');
    assert.equal(checked.line, 2);
    assert.match(checked.message, /^line 2: .*priority/);
    const badDate = parseTicketsJsonl(jsonl(ticket('a'), ticket('c', { createdAt: 'yesterday' })));
    assert.ok(!badDate.ok && badDate.kind === 'invalid');
    assert.match(badDate.message, /^line 2: .*createdAt.*date-time/);
  });

  test('when a line is not JSON, is JSON but not an object, or repeats an id, then that line is named', () => {
    const notJson = parseTicketsJsonl(jsonl(ticket('a'), '{"id": "b",'));
    assert.ok(!notJson.ok && notJson.kind === 'invalid');
    assert.equal(notJson.line, 2);
    assert.match(notJson.message, /not JSON/);
    const array = parseTicketsJsonl(jsonl('[1, 2]'));
    assert.ok(!array.ok && array.kind === 'invalid' && array.line === 1);
    const repeated = parseTicketsJsonl(jsonl(ticket('a'), ticket('b'), ticket('a')));
    assert.ok(!repeated.ok && repeated.kind === 'invalid');
    assert.equal(repeated.line, 3);
    assert.match(repeated.message, /repeats id "a"/);
  });

  test('when the file has no tickets or more than the limit, then it says so', () => {
    const empty = parseTicketsJsonl('\n\n');
    assert.ok(!empty.ok && empty.kind === 'invalid');
    const tooMany = parseTicketsJsonl(jsonl(ticket('a'), ticket('b'), ticket('c')), 2);
    assert.deepEqual(tooMany, { ok: false, kind: 'too_many', limit: 2 });
  });
});

describe('ticket lines and batches', () => {
  test('when a ticket has the separator and line breaks in it, then its compact line still splits back into its fields', () => {
    const line = ticketLine(ticket('T-1', { subject: 'a | b', body: 'one\ntwo | three', channel: 'chat' }));
    assert.ok(!line.includes('\n'));
    assert.deepEqual(parseTicketLine(line), { id: 'T-1', priority: 'normal', channel: 'chat', subject: 'a / b', body: 'one two / three' });
  });

  test('when the body is long, then the line carries only its opening', () => {
    const line = ticketLine(ticket('T-1', { body: 'x'.repeat(5000) }));
    assert.ok(line.length < 400);
  });

  test('when lines are batched, then no batch passes either bound, order is kept and nothing is lost', () => {
    const lines = Array.from({ length: 25 }, (_, index) => `line-${index}-${'y'.repeat(index)}`);
    const batches = batchLines(lines, 100, 4);
    assert.deepEqual(batches.flat(), lines);
    for (const batch of batches) {
      assert.ok(batch.length <= 4);
      assert.ok(batch.length === 1 || batch.join('\n').length + 1 <= 100, JSON.stringify(batch));
    }
  });
});

describe('mergeBatchSummaries', () => {
  const tickets = [ticket('a', { priority: 'high' }), ticket('b', { priority: 'urgent' }), ticket('c'), ticket('d', { priority: 'urgent' })];
  const facts = ticketFacts(tickets);

  test('when batches name themes alike, then they are one theme and each ticket counts once; unknown ids are dropped', () => {
    const merged = mergeBatchSummaries(facts, [
      { themes: [{ name: 'Billing', ticketIds: ['a', 'b', 'zz'] }], urgent: [] },
      { themes: [{ name: ' billing ', ticketIds: ['c', 'a'] }, { name: 'login', ticketIds: ['b'] }], urgent: [] },
    ]);
    assert.deepEqual(
      merged.themes.map((theme) => [theme.name, theme.count, theme.share]),
      [['billing', 3, 0.75]],
      'b stays under billing; login, left with no ticket, is no theme',
    );
    assert.equal(merged.unthemedCount, 1);
    assert.equal(merged.batches, 2);
  });

  test('when tickets are urgent, then the urgent priority comes first, then file order, each once', () => {
    const merged = mergeBatchSummaries(facts, [
      { themes: [], urgent: [{ id: 'a', reason: 'angry' }, { id: 'd', reason: 'outage' }] },
      { themes: [], urgent: [{ id: 'b', reason: 'down' }, { id: 'a', reason: 'again' }, { id: 'nope', reason: 'x' }] },
    ]);
    assert.deepEqual(merged.urgent.map((t) => [t.id, t.reason]), [['b', 'down'], ['d', 'outage'], ['a', 'angry']]);
    assert.equal(merged.urgentCount, 3);
  });

  test('when the merged digest gets its narrative, then it matches the result schema', () => {
    const merged = mergeBatchSummaries(facts, [{ themes: [{ name: 'bug', ticketIds: ['a', 'b', 'c', 'd'] }], urgent: [{ id: 'b', reason: 'x' }] }]);
    const checked = validateTicketsDigest({ ...merged, narrative: 'Four tickets.' });
    assert.ok(checked.ok, JSON.stringify(!checked.ok && checked.errors));
    assert.deepEqual(merged.counts.byPriority, { low: 0, normal: 1, high: 1, urgent: 2 });
    assert.deepEqual(merged.counts.byChannel, { '-': 4 });
  });
});
