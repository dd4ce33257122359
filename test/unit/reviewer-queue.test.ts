import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { collectQueue, QUEUE_MAX, QUEUE_PAGE, type JobSummary, type QueuePageAnswer } from '../../reviewer/browser/api';

const HOUR = 3_600_000;
const start = Date.parse('2026-12-01T00:00:00Z');

/** `count` jobs awaiting review; job i entered review i minutes after the first, so job 0 expires first. */
function backlog(count: number): JobSummary[] {
  return Array.from({ length: count }, (_, i) => ({
    jobId: `invoice:demo:job-${String(i).padStart(5, '0')}`,
    status: 'awaiting_review',
    submittedAt: new Date(start + i * 60_000).toISOString(),
    reviewDeadline: new Date(start + i * 60_000 + 48 * HOUR).toISOString(),
    links: {},
  }));
}

/**
 * Pages of `jobs` the way GET /jobs?status=awaiting_review gives them: Temporal's SQL visibility lists running
 * workflows newest first, so the jobs closest to expiring are on the last pages. Records the tokens it was given.
 */
function newestFirstPages(jobs: JobSummary[], pageSize = QUEUE_PAGE) {
  const newestFirst = [...jobs].reverse();
  const tokens: Array<string | undefined> = [];
  const readPage = async (pageToken: string | undefined): Promise<QueuePageAnswer> => {
    tokens.push(pageToken);
    const from = pageToken === undefined ? 0 : Number(pageToken);
    const to = from + pageSize;
    return { jobs: newestFirst.slice(from, to), ...(to < newestFirst.length ? { nextPageToken: String(to) } : {}) };
  };
  return { readPage, tokens };
}

describe('the reviewer queue: which jobs it shows', () => {
  test('when more jobs await review than the queue shows, then it shows the ones closest to expiring, oldest first', async () => {
    const jobs = backlog(QUEUE_MAX + 1_500);
    const { readPage, tokens } = newestFirstPages(jobs);
    const queue = await collectQueue(readPage);
    assert.equal(queue.length, QUEUE_MAX);
    assert.deepEqual(
      queue.map((job) => job.jobId),
      jobs.slice(0, QUEUE_MAX).map((job) => job.jobId),
      'the QUEUE_MAX jobs with the earliest deadlines, earliest first; the newest are the ones left out',
    );
    assert.equal(tokens.length, Math.ceil(jobs.length / QUEUE_PAGE), 'every page was read, once');
    assert.equal(new Set(tokens).size, tokens.length);
  });

  test('when the backlog fits, then every job is shown once, oldest first, even if a job comes on two pages', async () => {
    const jobs = backlog(450);
    const { readPage } = newestFirstPages(jobs);
    const repeating = async (pageToken: string | undefined): Promise<QueuePageAnswer> => {
      const page = await readPage(pageToken);
      // The list moved between two requests: the last job of the previous page comes again.
      return pageToken === '200' ? { ...page, jobs: [jobs[250] as JobSummary, ...page.jobs] } : page;
    };
    const queue = await collectQueue(repeating);
    assert.deepEqual(
      queue.map((job) => job.jobId),
      jobs.map((job) => job.jobId),
    );
  });

  test('when the backlog is larger than the pages the queue reads, then it fails instead of leaving out the oldest jobs', async () => {
    const { readPage, tokens } = newestFirstPages(backlog(1_000), 100);
    await assert.rejects(collectQueue(readPage, { max: 50, maxPages: 5 }), /more than 5 pages of jobs await review/);
    assert.equal(tokens.length, 5, 'it stops reading at the bound');
    const fits = newestFirstPages(backlog(500), 100);
    assert.equal((await collectQueue(fits.readPage, { max: 50, maxPages: 5 })).length, 50, 'exactly at the bound is fine');
  });

  test('when nothing awaits review, then the queue is empty after one request', async () => {
    const { readPage, tokens } = newestFirstPages([]);
    assert.deepEqual(await collectQueue(readPage), []);
    assert.equal(tokens.length, 1);
  });
});
