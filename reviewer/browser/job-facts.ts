import type { Job } from './api';
import { h } from './dom';
import { valueAt } from '../../common/job-types/job-name';
import type { ReviewerField, ReviewerView } from './job-types';

/** The type's read-only sections (an order's facts, the model's score and reasons), in place of a document. */
export function renderJobFacts(view: ReviewerView, job: Job): HTMLElement {
  return h(
    'div',
    { class: 'job-facts', 'data-testid': 'job-facts' },
    ...view.sections.map((section) =>
      h(
        'section',
        { 'aria-label': section.heading },
        h('h2', {}, section.heading),
        h(
          'dl',
          {},
          ...section.fields.flatMap((field) => [
            h('dt', {}, field.label),
            h('dd', { 'data-field': `${section.from}.${field.path}` }, formatted(field, valueAt(job[section.from], field.path))),
          ]),
        ),
      ),
    ),
  );
}

/** A value as its field's format shows it; a value that is not there is a dash, never "undefined". */
function formatted(field: ReviewerField, value: unknown): Node | string {
  if (value === undefined || value === null || value === '') return '—';
  switch (field.format) {
    case 'list':
      return Array.isArray(value) ? h('ul', {}, ...value.map((item) => h('li', {}, String(item)))) : String(value);
    case 'score':
      return typeof value === 'number' ? `${Math.round(value * 100)}%` : String(value);
    case 'yes-no':
      return value === true ? 'yes' : value === false ? 'no' : String(value);
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}
