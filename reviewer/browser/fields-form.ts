import validateInvoice from 'virtual:invoice-validator';
import type { InvoiceExtraction } from '../../common/invoice';
import { formatErrors } from '../../common/schema-errors';
import { h, mount } from './dom';
import {
  errorsByInput,
  type FormValues,
  formValuesFrom,
  invoiceFrom,
  LINE_ITEM_COLUMNS,
  type LineItemColumn,
  SCALAR_FIELDS,
  type ScalarFieldName,
} from './invoice-form-model';

export interface FieldsForm {
  element: HTMLElement;
  /** The invoice as typed, and the schema's complaints about it (empty when it may be approved). */
  current(): { invoice: Record<string, unknown>; errors: string[] };
  /** Errors the server sent back (422), shown at their fields like the page's own. */
  showErrors(errors: string[]): void;
  focusFirstError(): void;
}

const COLUMN_LABELS: Record<LineItemColumn, string> = { description: 'Description', quantity: 'Qty', unitPrice: 'Unit price', amount: 'Amount' };

/**
 * The fields to approve: pre-filled with what the model read, each with its confidence (low ones marked), checked
 * against the invoice schema on every keystroke by the same compiled schema the API uses.
 */
export function createFieldsForm(options: {
  source: Record<string, unknown> | undefined;
  extraction: InvoiceExtraction | undefined;
  threshold: number;
  onChange: () => void;
}): FieldsForm {
  const values: FormValues = formValuesFrom(options.source);
  const errorSlots = new Map<string, HTMLElement>();
  const inputs = new Map<string, HTMLInputElement>();
  const summary = h('div', { class: 'form-errors', role: 'alert', 'data-testid': 'form-errors' });
  const lineItemsBody = h('tbody');

  const confidenceOf = (name: string) => (options.extraction?.confidence as Record<string, number> | undefined)?.[name];

  const input = (key: string, value: string, label: string, onInput: (value: string) => void, attributes: Record<string, string> = {}) => {
    const element = h('input', { id: `field-${key}`, name: key, value, 'aria-label': label, autocomplete: 'off', spellcheck: 'false', ...attributes });
    element.addEventListener('input', () => {
      onInput(element.value);
      validate();
      options.onChange();
    });
    inputs.set(key, element);
    return element;
  };
  const errorSlot = (key: string) => {
    const slot = h('div', { class: 'field-error', id: `error-${key}`, 'data-error-for': key });
    errorSlots.set(key, slot);
    return slot;
  };

  const scalarRows = SCALAR_FIELDS.map((field) => {
    const confidence = confidenceOf(field.name);
    const low = confidence !== undefined && confidence < options.threshold;
    const hint = field.kind === 'date' ? 'YYYY-MM-DD' : field.name === 'currency' ? 'EUR' : field.kind === 'number' ? '0.00' : '';
    return h(
      'div',
      { class: `field${low ? ' low-confidence' : ''}`, 'data-field': field.name },
      h('label', { for: `field-${field.name}` }, field.label, field.nullable ? h('span', { class: 'optional' }, ' (optional)') : null),
      confidenceBadge(confidence, low),
      input(field.name, values.scalars[field.name], field.label, (value) => (values.scalars[field.name as ScalarFieldName] = value), {
        placeholder: hint,
        'aria-describedby': `error-${field.name}`,
        ...(field.kind === 'number' ? { inputmode: 'decimal' } : {}),
      }),
      errorSlot(field.name),
    );
  });

  const renderLineItems = () => {
    mount(
      lineItemsBody,
      ...values.lineItems.map((row, index) =>
        h(
          'tr',
          {},
          ...LINE_ITEM_COLUMNS.map((column) =>
            h(
              'td',
              {},
              input(`lineItems.${index}.${column}`, row[column], `Line ${index + 1} ${COLUMN_LABELS[column]}`, (value) => (row[column] = value), {
                ...(column === 'description' ? {} : { inputmode: 'decimal' }),
              }),
              errorSlot(`lineItems.${index}.${column}`),
            ),
          ),
          h('td', {}, h('button', { type: 'button', class: 'link', 'aria-label': `Remove line ${index + 1}`, onclick: () => removeLine(index) }, '×')),
        ),
      ),
    );
  };
  const removeLine = (index: number) => {
    values.lineItems.splice(index, 1);
    rebuildLineItems();
  };
  const addLine = () => {
    values.lineItems.push({ description: '', quantity: '', unitPrice: '', amount: '' });
    rebuildLineItems();
    inputs.get(`lineItems.${values.lineItems.length - 1}.description`)?.focus();
  };
  const rebuildLineItems = () => {
    for (const key of [...inputs.keys()].filter((k) => k.startsWith('lineItems.'))) {
      inputs.delete(key);
      errorSlots.delete(key);
    }
    renderLineItems();
    validate();
    options.onChange();
  };
  renderLineItems();

  const lineItemsConfidence = confidenceOf('lineItems');
  const lineItemsLow = lineItemsConfidence !== undefined && lineItemsConfidence < options.threshold;
  const element = h(
    'form',
    { class: 'fields', 'aria-label': 'Invoice fields', novalidate: true, onsubmit: (event: Event) => event.preventDefault() },
    h('div', { class: 'field-grid' }, ...scalarRows),
    h(
      'fieldset',
      { class: `line-items${lineItemsLow ? ' low-confidence' : ''}` },
      h('legend', {}, 'Line items ', confidenceBadge(lineItemsConfidence, lineItemsLow)),
      h('table', {}, h('thead', {}, h('tr', {}, ...LINE_ITEM_COLUMNS.map((c) => h('th', {}, COLUMN_LABELS[c])), h('th', {}, ''))), lineItemsBody),
      errorSlot('lineItems'),
      h('button', { type: 'button', class: 'link', onclick: addLine }, '+ Add a line'),
    ),
    summary,
  );

  let currentErrors: string[] = [];
  function show(errors: string[]): void {
    const byInput = errorsByInput(errors);
    for (const [key, slot] of errorSlots) {
      const message = byInput.get(key);
      slot.textContent = message ?? '';
      const field = inputs.get(key);
      field?.toggleAttribute('aria-invalid', message !== undefined);
      if (message !== undefined) byInput.delete(key);
    }
    // Errors without an input of their own (a missing property, a whole line) are listed under the form.
    mount(summary, ...[...byInput.entries()].map(([key, message]) => h('p', {}, `${key === '(form)' ? '' : `${key}: `}${message}`)));
  }
  function validate(): void {
    const invoice = invoiceFrom(values);
    currentErrors = validateInvoice(invoice) ? [] : formatErrors(validateInvoice.errors ?? []);
    show(currentErrors);
  }
  validate();

  return {
    element,
    current: () => ({ invoice: invoiceFrom(values), errors: currentErrors }),
    showErrors: (errors) => show(errors),
    focusFirstError: () => {
      const first = [...inputs.values()].find((field) => field.hasAttribute('aria-invalid'));
      first?.focus();
    },
  };
}

function confidenceBadge(confidence: number | undefined, low: boolean): HTMLElement | null {
  if (confidence === undefined) return null;
  const percent = `${Math.round(confidence * 100)}%`;
  return h(
    'span',
    { class: `confidence${low ? ' low' : ''}`, title: `model confidence ${percent}`, 'data-testid': 'confidence' },
    low ? `low · ${percent}` : percent,
  );
}
