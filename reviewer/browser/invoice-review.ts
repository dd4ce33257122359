import type { InvoiceExtraction } from '../../common/invoice';
import type { Job } from './api';
import { h } from './dom';
import { createFieldsForm, type FieldsForm } from './fields-form';
import { parseRawOutput } from './invoice-form-model';
import { modelAnswerProblems } from './model-answer';

export interface InvoiceReview {
  /** The model's overall confidence, or why there is none. */
  summary: HTMLElement;
  form: FieldsForm;
}

/** An invoice is approved with its fields: the form, pre-filled from the extraction (or what parses of the raw output). */
export function createInvoiceReview(job: Job, threshold: number, onChange: () => void): InvoiceReview {
  const extraction = job.extraction as InvoiceExtraction | undefined;
  const source = (extraction?.invoice as Record<string, unknown> | undefined) ?? parseRawOutput(job.rawModelOutput);
  const form = createFieldsForm({ source, extraction, threshold, onChange });
  const overall = job.confidence;
  const summary = h(
    'div',
    { class: 'review-summary' },
    overall !== undefined
      ? h('p', {}, 'Overall confidence ', h('strong', { class: overall < threshold ? 'low' : '' }, `${Math.round(overall * 100)}%`), ` (review below ${Math.round(threshold * 100)}%)`)
      : h('p', { class: 'warning' }, 'The model’s answer did not match the invoice schema; the fields below are what could be read from it.'),
    ...modelAnswerProblems(job, !extraction),
  );
  return { summary, form };
}
