import type { JobSummary } from './api';
import { h, mount } from './dom';
import { jobNameOf, typeTitleOf } from './job-types';
import { jobHash, type PageContext } from './page-context';
import { formatAge, formatTimeLeft, isUrgent } from './time-left';

export interface QueuePage {
  /** Redraws with the latest queue, keeping the selection on the same job where it can. */
  update(queue: JobSummary[], loadedAt: number | undefined, error: string | undefined): void;
  move(offset: 1 | -1): void;
  openSelected(): void;
}

/** The jobs awaiting review for this tenant, oldest first, with the time each has left. */
export function renderQueuePage(root: HTMLElement, ctx: PageContext): QueuePage {
  let selectedId: string | undefined;
  let jobs: JobSummary[] = [];
  const heading = h('h1', {}, 'Awaiting review');
  const meta = h('p', { class: 'muted queue-meta', 'aria-live': 'polite' });
  const body = h('tbody');
  const table = h(
    'table',
    { class: 'queue', 'aria-label': 'Jobs awaiting review' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Job'), h('th', {}, 'Type'), h('th', {}, 'Submitted'), h('th', {}, 'Time left'), h('th', {}, 'Priority'), h('th', {}, 'Job id'))),
    body,
  );
  const empty = h('p', { class: 'empty', hidden: true }, 'Nothing to review. New jobs appear here by themselves.');
  mount(
    root,
    h(
      'div',
      { class: 'queue-page' },
      heading,
      meta,
      table,
      empty,
      h('p', { class: 'muted hints' }, h('kbd', {}, 'j'), ' / ', h('kbd', {}, 'k'), ' move · ', h('kbd', {}, 'Enter'), ' open · in a job: ', h('kbd', {}, 'a'), ' approve, ', h('kbd', {}, 'r'), ' reject'),
    ),
  );

  const select = (jobId: string | undefined) => {
    selectedId = jobId;
    for (const row of body.querySelectorAll('tr')) {
      const selected = row.dataset.jobId === jobId;
      row.classList.toggle('selected', selected);
      row.setAttribute('aria-selected', String(selected));
      if (selected) row.scrollIntoView({ block: 'nearest' });
    }
  };

  const update: QueuePage['update'] = (queue, loadedAt, error) => {
    jobs = queue;
    const now = Date.now();
    heading.textContent = queue.length === 0 ? 'Awaiting review' : `Awaiting review (${queue.length})`;
    meta.textContent = error ? `Could not refresh: ${error}` : loadedAt ? `Refreshes by itself · updated ${new Date(loadedAt).toLocaleTimeString()}` : 'Loading…';
    meta.classList.toggle('error', Boolean(error));
    empty.hidden = queue.length > 0 || loadedAt === undefined;
    table.hidden = queue.length === 0;
    mount(
      body,
      ...queue.map((job) =>
        h(
          'tr',
          { 'data-job-id': job.jobId, tabindex: '-1', onclick: () => ctx.go(jobHash(job.jobId)) },
          h('td', {}, h('a', { href: jobHash(job.jobId) }, jobNameOf(job))),
          h('td', { class: 'job-type' }, typeTitleOf(job.type)),
          h('td', { title: job.submittedAt ? new Date(job.submittedAt).toLocaleString() : '' }, formatAge(job.submittedAt, now)),
          h(
            'td',
            { class: `time-left${isUrgent(job.reviewDeadline, now) ? ' urgent' : ''}`, 'data-deadline': job.reviewDeadline ?? '' },
            formatTimeLeft(job.reviewDeadline, now),
          ),
          h('td', {}, job.priority ?? ''),
          h('td', { class: 'job-id muted' }, job.jobId.split(':').slice(2).join(':')),
        ),
      ),
    );
    select(queue.some((job) => job.jobId === selectedId) ? selectedId : queue[0]?.jobId);
  };

  return {
    update,
    move(offset) {
      const index = jobs.findIndex((job) => job.jobId === selectedId);
      const next = jobs[Math.min(Math.max(index + offset, 0), jobs.length - 1)];
      if (next) select(next.jobId);
    },
    openSelected() {
      if (selectedId) ctx.go(jobHash(selectedId));
    },
  };
}
