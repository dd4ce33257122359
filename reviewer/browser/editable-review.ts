import editableValidators from 'virtual:editable-validators';
import type { FieldCitations } from '../../common/job-types/invoice/field-citations';
import type { EditableResult } from '../../common/job-types/job-type';
import type { Job } from './api';
import { h } from './dom';
import { createFieldsForm, type FieldsForm } from './fields-form';
import { modelAnswerProblems } from './model-answer';
import { type FormSchema, formOf, startingValue, UnsupportedSchemaError, valueAt } from './schema-form-model';

export interface EditableReview {
  /** The model's overall confidence, or why there is none. */
  summary: HTMLElement;
  /** Absent when this page cannot show the type's schema (it says so in the summary). */
  form: FieldsForm | undefined;
  /** Where each top-level field was read, when the view says where they are and the job has them. */
  citations: FieldCitations | undefined;
}

/**
 * A type approved with an edited result: the form its schema describes, pre-filled from where the view says the
 * proposed value is in the job (or what parses of the model's raw output). Nothing here knows which type it is.
 */
export function createEditableReview(job: Job, type: string, title: string, editable: EditableResult, threshold: number, onChange: () => void): EditableReview {
  const body = job as unknown as Record<string, unknown>;
  const proposed = editable.startsFrom === undefined ? undefined : valueAt(body, editable.startsFrom.split('.'));
  const confidence = editable.confidenceFrom === undefined ? undefined : (valueAt(body, editable.confidenceFrom.split('.')) as Record<string, number> | undefined);
  const citations = editable.citationsFrom === undefined ? undefined : (valueAt(body, editable.citationsFrom.split('.')) as FieldCitations | undefined);
  const overall = job.confidence;
  const head =
    overall !== undefined
      ? h('p', {}, 'Overall confidence ', h('strong', { class: overall < threshold ? 'low' : '' }, `${Math.round(overall * 100)}%`), ` (review below ${Math.round(threshold * 100)}%)`)
      : editable.startsFrom !== undefined && proposed === undefined && job.rawModelOutput
        ? h('p', { class: 'warning' }, `The model’s answer did not match the ${title.toLowerCase()} schema; the fields below are what could be read from it.`)
        : null;
  const problems = modelAnswerProblems(job, editable.startsFrom !== undefined && proposed === undefined);
  const validate = editableValidators[type];
  let form: FieldsForm | undefined;
  let unsupported: string | undefined;
  try {
    if (!validate) throw new UnsupportedSchemaError('this page was built without its validator');
    form = createFieldsForm({ title, form: formOf(editable.schema as FormSchema), validate, source: startingValue(body, editable.startsFrom), confidence, citations, threshold, onChange });
  } catch (error) {
    if (!(error instanceof UnsupportedSchemaError)) throw error;
    unsupported = `This page cannot show the fields of a ${title}: ${error.message}.`;
  }
  const summary = h('div', { class: 'review-summary' }, head, citationNote(citations), unsupported ? h('p', { class: 'error', role: 'alert' }, unsupported) : null, ...problems);
  return { summary, form, citations };
}

/** Why no field can show where it was read: a scan has no text to cite, or the citations call gave none. */
function citationNote(citations: FieldCitations | undefined): HTMLElement | null {
  if (citations?.textLayer === false) return h('p', { class: 'muted', 'data-testid': 'no-text-layer' }, 'No text layer: no citations. Read the values off the scan.');
  if (citations?.unavailable) return h('p', { class: 'warning', 'data-testid': 'citations-unavailable' }, `No citations: ${citations.unavailable}.`);
  return null;
}
