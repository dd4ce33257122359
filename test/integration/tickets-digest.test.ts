import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { TICKETS_DIGEST_BATCHING } from '../../common/job-types/tickets-digest/definition';
import { batchLines, ticketLine } from '../../common/job-types/tickets-digest/ticket-lines';
import { acme, apiUrl, demo, getJob, waitForJob } from '../support/api-client';
import { digestOf, eventually, submitTickets, ticketsDay } from '../support/tickets';

const FINISHED = ['completed', 'failed', 'dead_letter', 'cancelled'];

describe('tickets.digest through the real stack', () => {
  test('when a day of 1,500 tickets is submitted, then the digest counts every theme and lists every urgent ticket, on the bulk queue', async () => {
    const day = ticketsDay(1500, 77);
    const submitted = await submitTickets(day.bytes);
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    assert.match(jobId, /^tickets\.digest:demo:/);

    const done = await waitForJob(jobId, FINISHED, 120_000);
    assert.equal(done.status, 'completed', JSON.stringify(done.error ?? done));
    assert.equal(done.type, 'tickets.digest');
    assert.equal(done.priority, 'bulk', 'a digest runs on the bulk queue unless asked otherwise');
    const digest = digestOf(done);
    assert.ok(digest, 'the job carries its digest');
    assert.equal(digest.ticketCount, 1500);
    assert.deepEqual(
      Object.fromEntries(digest.themes.map((theme) => [theme.name, theme.count])),
      Object.fromEntries(day.themes),
      'each theme counts exactly the tickets the simulator puts under it',
    );
    assert.equal(digest.unthemedCount, 0);
    assert.equal(digest.urgentCount, day.urgent.length);
    assert.deepEqual(
      digest.urgent.map((ticket) => ticket.id),
      day.urgent.slice(0, digest.urgent.length).map((ticket) => ticket.id),
      'urgent tickets in file order',
    );
    assert.equal(digest.counts.byPriority.urgent, day.urgent.length);
    const expectedBatches = batchLines(day.tickets.map(ticketLine), TICKETS_DIGEST_BATCHING.maxBatchCharacters, TICKETS_DIGEST_BATCHING.maxBatchTickets).length;
    assert.ok(expectedBatches > 1, 'the day is large enough to need several batches');
    assert.equal(digest.batches, expectedBatches);
    assert.deepEqual(done.progress, { done: expectedBatches, total: expectedBatches });
    assert.equal(done.usage?.calls, expectedBatches + 1, 'one call per batch and one for the narrative');
    assert.match(digest.narrative, /^1500 tickets arrived/);
    assert.match(digest.narrative, new RegExp(`${digest.themes[0]?.name} \\(${digest.themes[0]?.count}\\)`));

    const listed = await eventually('the digest in GET /jobs', async () => {
      const response = await fetch(`${apiUrl()}/jobs?limit=100`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
      const list = (await response.json()) as { jobs: Array<{ jobId: string; status: string }> };
      return list.jobs.find((job) => job.jobId === jobId && job.status === 'completed');
    });
    assert.equal(listed.jobId, jobId);
    assert.equal((await getJob(jobId, acme.apiKey)).status, 404, 'another tenant cannot read it');
  });

  test('when a line of the file is not a ticket, then the upload is a 400 naming that line and no job starts', async () => {
    const day = ticketsDay(5, 3);
    const lines = new TextDecoder().decode(day.bytes).trimEnd().split('\n');
    lines[2] = JSON.stringify({ id: 'T-bad', createdAt: 'yesterday', priority: 'whenever', subject: 'x', body: '' });
    const key = `digest-bad-line-${Date.now()}`;
    const answer = await submitTickets(new TextEncoder().encode(lines.join('\n')), { key });
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.equal(answer.body.error?.code, 'invalid_request');
    assert.equal(answer.body.error?.details?.line, 3);
    assert.match(answer.body.error?.message ?? '', /^line 3: /);
    assert.equal((await getJob(`tickets.digest:demo:${key}`)).status, 404, 'nothing was started');
  });

  test('when a line is not JSON or an id repeats, then the 400 names the first such line', async () => {
    const notJson = await submitTickets(new TextEncoder().encode('{"id":"a"\n'));
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.error?.details?.line, 1);
    const day = ticketsDay(3, 4);
    const repeated = `${new TextDecoder().decode(day.bytes)}${JSON.stringify(day.tickets[0])}\n`;
    const answer = await submitTickets(new TextEncoder().encode(repeated));
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.details?.line, 4);
    assert.match(answer.body.error?.message ?? '', /repeats id/);
  });

  test('when a PDF is sent as a digest input, then it is a 415', async () => {
    const answer = await submitTickets(new TextEncoder().encode('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n'));
    assert.equal(answer.status, 415, JSON.stringify(answer.body));
  });
});
