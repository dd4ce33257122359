import type { EditableValidator } from 'virtual:editable-validators';
import type { FieldCitations } from '../../common/job-types/invoice/field-citations';
import { formatErrors } from '../../common/schema-errors';
import { h, mount } from './dom';
import {
  errorsByInput,
  type FormField,
  type FormValue,
  type FormValues,
  formValuesFrom,
  type ListField,
  newItem,
  type ObjectField,
  type ScalarField,
  valueFrom,
} from './schema-form-model';

export interface FieldsForm {
  element: HTMLElement;
  /** The result as typed, and the schema's complaints about it (empty when it may be approved). */
  current(): { fields: Record<string, unknown>; errors: string[] };
  /** Errors the server sent back (422), shown at their fields like the page's own. */
  showErrors(errors: string[]): void;
  focusFirstError(): void;
}

type Input = HTMLInputElement | HTMLSelectElement;

/**
 * The result a reviewer approves, built from the type's editable schema: pre-filled with what the model proposed,
 * each top-level field with the model's confidence when the view says where it is (low ones marked), and checked
 * on every keystroke by the schema compiled ahead of time, the same one the API and the workflow check.
 */
export function createFieldsForm(options: {
  title: string;
  form: ObjectField;
  validate: EditableValidator;
  source: unknown;
  confidence: Record<string, number> | undefined;
  /** Flags the top-level fields the model cited no passage for; absent (or a scan's): no flags. */
  citations: FieldCitations | undefined;
  threshold: number;
  onChange: () => void;
}): FieldsForm {
  const values: FormValues = formValuesFrom(options.form, options.source);
  const errorSlots = new Map<string, HTMLElement>();
  const inputs = new Map<string, Input>();
  const summary = h('div', { class: 'form-errors', role: 'alert', 'data-testid': 'form-errors' });

  const changed = () => {
    validate();
    options.onChange();
  };
  const confidenceOf = (field: FormField, depth: number) => (depth === 0 ? options.confidence?.[field.name] : undefined);
  const isLow = (confidence: number | undefined) => confidence !== undefined && confidence < options.threshold;
  /**
   * Whether this field shows it was not cited: only top-level fields are cited, only documents with text, and only
   * when citations were asked for (when they were not, the summary says why once instead).
   */
  const uncited = (field: FormField, depth: number) =>
    depth === 0 && options.citations?.textLayer === true && options.citations.unavailable === undefined && options.citations.fields[field.name] === undefined;

  const errorSlot = (key: string) => {
    const slot = h('div', { class: 'field-error', id: `error-${key}`, 'data-error-for': key });
    errorSlots.set(key, slot);
    return slot;
  };

  /** One scalar's input: a select for an enum or a yes/no, else a text input with the format's example. */
  const inputFor = (field: ScalarField, key: string, label: string, value: string, onInput: (value: string) => void): Input => {
    const common = { id: `field-${key}`, name: key, 'aria-label': label, 'aria-describedby': `error-${key}`, 'aria-required': field.required ? 'true' : undefined };
    let element: Input;
    if (field.type === 'enum' || field.type === 'boolean') {
      const optionLabel = (option: string) => (field.type === 'boolean' ? (option === 'true' ? 'yes' : 'no') : option);
      element = h(
        'select',
        common,
        h('option', { value: '' }, field.nullable ? '— none —' : '— choose —'),
        ...field.options.map((option) => h('option', { value: option, selected: option === value }, optionLabel(option))),
      );
      // A proposed value the schema does not list (a model's "review") shows as unchosen.
      onInput(element.value);
      element.addEventListener('change', () => {
        onInput(element.value);
        changed();
      });
    } else {
      element = h('input', {
        ...common,
        value,
        autocomplete: 'off',
        spellcheck: 'false',
        placeholder: field.placeholder,
        title: field.hint || undefined,
        inputmode: field.type === 'number' ? 'decimal' : field.type === 'integer' ? 'numeric' : undefined,
      });
      element.addEventListener('input', () => {
        onInput(element.value);
        changed();
      });
    }
    inputs.set(key, element);
    return element;
  };

  const labelText = (field: FormField) => [field.label, field.required ? h('span', { class: 'required', title: 'required' }, ' *') : h('span', { class: 'optional' }, ' (optional)')];

  const scalarRow = (field: ScalarField, record: FormValues, depth: number) => {
    const confidence = confidenceOf(field, depth);
    const low = isLow(confidence);
    return h(
      'div',
      { class: `field${low ? ' low-confidence' : ''}${field.wide ? ' wide' : ''}`, 'data-field': field.key },
      h('label', { for: `field-${field.key}` }, ...labelText(field)),
      confidenceBadge(confidence, low),
      uncited(field, depth) ? noCitationFlag() : null,
      inputFor(field, field.key, field.label, record[field.name] as string, (value) => (record[field.name] = value)),
      field.hint ? h('small', { class: 'hint' }, field.hint) : null,
      errorSlot(field.key),
    );
  };

  /** A list: one table row per item, a column per property of an item (or one for a list of values). */
  const listBlock = (list: ListField, record: FormValues, depth: number) => {
    const items = (record[list.name] ??= []) as FormValue[];
    const body = h('tbody');
    const keyOf = (index: number, column: ScalarField) => (list.itemIsObject ? `${list.key}.${index}.${column.name}` : `${list.key}.${index}`);
    const render = () =>
      mount(
        body,
        ...items.map((item, index) =>
          h(
            'tr',
            {},
            ...list.columns.map((column) => {
              const key = keyOf(index, column);
              const cell = list.itemIsObject ? (item as FormValues) : undefined;
              const value = cell ? (cell[column.name] as string) : (item as string);
              const set = (typed: string) => (cell ? (cell[column.name] = typed) : (items[index] = typed));
              const label = list.itemIsObject ? `${list.label} ${index + 1} ${column.label}` : `${list.label} ${index + 1}`;
              return h('td', {}, inputFor(column, key, label, value, set), errorSlot(key));
            }),
            h('td', {}, h('button', { type: 'button', class: 'link', 'aria-label': `Remove ${list.label} ${index + 1}`, onclick: () => remove(index) }, '×')),
          ),
        ),
      );
    const rebuild = () => {
      for (const key of [...inputs.keys()].filter((k) => k.startsWith(`${list.key}.`))) {
        inputs.delete(key);
        errorSlots.delete(key);
      }
      render();
      changed();
    };
    const remove = (index: number) => {
      items.splice(index, 1);
      rebuild();
    };
    const add = () => {
      items.push(newItem(list));
      rebuild();
      const first = list.columns[0];
      if (first) inputs.get(keyOf(items.length - 1, first))?.focus();
    };
    render();
    const confidence = confidenceOf(list, depth);
    const low = isLow(confidence);
    return h(
      'fieldset',
      { class: `line-items${list.itemIsObject ? '' : ' single'}${low ? ' low-confidence' : ''}`, 'data-field': list.key },
      h('legend', {}, ...labelText(list), ' ', confidenceBadge(confidence, low), uncited(list, depth) ? noCitationFlag() : null),
      h('table', {}, h('thead', {}, h('tr', {}, ...list.columns.map((column) => h('th', {}, list.itemIsObject ? column.label : '')), h('th', {}, ''))), body),
      errorSlot(list.key),
      h('button', { type: 'button', class: 'link', onclick: add }, `+ Add ${list.itemIsObject ? 'a line' : 'one'}`),
    );
  };

  /** An object's scalars in a grid, then its nested objects and lists, each in a box of its own. */
  const objectBlock = (object: ObjectField, record: FormValues, depth: number): HTMLElement[] => {
    const scalars = object.fields.filter((field): field is ScalarField => field.kind === 'scalar');
    const blocks = object.fields.flatMap((field) => {
      if (field.kind === 'list') return [listBlock(field, record, depth)];
      if (field.kind !== 'object') return [];
      const inner = (record[field.name] ??= {}) as FormValues;
      return [h('fieldset', { class: 'nested', 'data-field': field.key }, h('legend', {}, ...labelText(field)), ...objectBlock(field, inner, depth + 1), errorSlot(field.key))];
    });
    return [h('div', { class: 'field-grid' }, ...scalars.map((field) => scalarRow(field, record, depth))), ...blocks];
  };

  const element = h(
    'form',
    { class: 'fields', 'aria-label': `${options.title} fields`, novalidate: true, onsubmit: (event: Event) => event.preventDefault() },
    ...objectBlock(options.form, values, 0),
    summary,
  );

  let currentErrors: string[] = [];
  function show(errors: string[]): void {
    const byInput = errorsByInput(errors);
    for (const [key, slot] of errorSlots) {
      const message = byInput.get(key);
      slot.textContent = message ?? '';
      inputs.get(key)?.toggleAttribute('aria-invalid', message !== undefined);
      if (message !== undefined) byInput.delete(key);
    }
    // Errors without an input of their own (a missing property, a whole line) are listed under the form.
    mount(summary, ...[...byInput.entries()].map(([key, message]) => h('p', {}, `${key === '(form)' ? '' : `${key}: `}${message}`)));
  }
  function validate(): void {
    currentErrors = options.validate(valueFrom(options.form, values)) ? [] : formatErrors(options.validate.errors ?? []);
    show(currentErrors);
  }
  validate();

  return {
    element,
    current: () => ({ fields: valueFrom(options.form, values), errors: currentErrors }),
    showErrors: (errors) => show(errors),
    focusFirstError: () => [...inputs.values()].find((field) => field.hasAttribute('aria-invalid'))?.focus(),
  };
}

function noCitationFlag(): HTMLElement {
  return h('span', { class: 'no-citation', title: 'the model cited no passage of the document for this value: check it against the document', 'data-testid': 'no-citation' }, 'no citation');
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
