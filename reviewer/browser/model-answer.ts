import type { Job } from './api';
import { h } from './dom';

/**
 * Why the job is here when the job says (a call heard poorly), what was wrong with the model's answer and the
 * answer itself when it failed its schema; nothing otherwise.
 */
export function modelAnswerProblems(job: Job, openRawOutput: boolean): HTMLElement[] {
  const parts: HTMLElement[] = [];
  if (job.reviewReason) parts.push(h('p', { class: 'warning review-reason', 'data-testid': 'review-reason' }, `In review: ${job.reviewReason}`));
  if (job.validationErrors?.length) {
    parts.push(
      h(
        'details',
        { class: 'model-errors', open: true },
        h('summary', {}, `What the model got wrong (${job.validationErrors.length})`),
        h('ul', {}, ...job.validationErrors.map((error) => h('li', {}, error))),
      ),
    );
  }
  if (job.rawModelOutput) {
    parts.push(
      h('details', { class: 'raw-output', open: openRawOutput }, h('summary', {}, 'Raw model output'), h('pre', { 'data-testid': 'raw-output' }, job.rawModelOutput)),
    );
  }
  return parts;
}
