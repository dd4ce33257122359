/**
 * The review form as data, built from a type's editable result (its JSON Schema): the schema → the fields to show,
 * the value the model proposed → the text in the inputs → the value that is approved, and schema errors → the input
 * they belong to. No DOM and no type named here, so it is tested in Node (test/unit/reviewer-form.test.ts).
 */

/** The part of JSON Schema the form reads: what TypeBox emits for objects, arrays, scalars and string enums. */
export interface FormSchema {
  type?: string | string[];
  properties?: Record<string, FormSchema>;
  required?: string[];
  items?: FormSchema;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  maxLength?: number;
  title?: string;
  description?: string;
}

export type ScalarType = 'string' | 'number' | 'integer' | 'boolean' | 'enum';

interface FieldBase {
  /** The input's key: the value's path, dot-separated (`lineItems.2.amount`); '' for the whole result. */
  key: string;
  /** The property's name in its object (a list item's: its index, filled in when rendered). */
  name: string;
  label: string;
  /** Listed in its object's `required` and not nullable: it must be filled in. */
  required: boolean;
}

export interface ScalarField extends FieldBase {
  kind: 'scalar';
  type: ScalarType;
  /** Blank means null. */
  nullable: boolean;
  /** The values an enum (or a boolean) may take. */
  options: readonly string[];
  /** An example of the format the schema wants (the input's placeholder), e.g. YYYY-MM-DD. */
  placeholder: string;
  /** What the schema says about the value beyond its type: its description, its pattern. */
  hint: string;
  /** Free text that may run long (a string without format, pattern or a short maxLength): a row of its own. */
  wide: boolean;
}

export interface ObjectField extends FieldBase {
  kind: 'object';
  fields: readonly FormField[];
}

export interface ListField extends FieldBase {
  kind: 'list';
  /** One item's columns: an object item's scalar properties, or the one scalar a list of scalars holds. */
  columns: readonly ScalarField[];
  /** Whether each item is an object (a row of columns) rather than a single value. */
  itemIsObject: boolean;
}

export type FormField = ScalarField | ObjectField | ListField;

/** Exactly what is typed in the inputs: text for every scalar, by property for objects, by item for lists. */
export type FormValue = string | FormValue[] | { [name: string]: FormValue };
export type FormValues = { [name: string]: FormValue };

/** A schema this form cannot show; the unit tests hold every registered type's editable result to it. */
export class UnsupportedSchemaError extends Error {}

const PLACEHOLDERS: Record<string, string> = {
  date: 'YYYY-MM-DD',
  'date-time': 'YYYY-MM-DDThh:mm:ssZ',
  time: 'hh:mm:ss',
  email: 'name@example.com',
  uri: 'https://…',
};

/** `invoiceNumber` → "Invoice number". */
export function labelOf(name: string, schema: FormSchema = {}): string {
  if (schema.title) return schema.title;
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The fields of an editable result, from its schema (an object, as every result is). */
export function formOf(schema: FormSchema): ObjectField {
  const field = fieldOf(schema, '', '', true);
  if (field.kind !== 'object') throw new UnsupportedSchemaError('an editable result must be an object');
  return field;
}

function typesOf(schema: FormSchema): { type: string | undefined; nullable: boolean } {
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const nonNull = types.filter((type) => type !== 'null');
  if (nonNull.length > 1) throw new UnsupportedSchemaError(`a value of several types (${nonNull.join(', ')})`);
  return { type: nonNull[0] ?? (schema.enum ? 'string' : undefined), nullable: types.includes('null') };
}

function fieldOf(schema: FormSchema, key: string, name: string, listed: boolean): FormField {
  const { type, nullable } = typesOf(schema);
  const base = { key, name, label: labelOf(name, schema), required: listed && !nullable };
  if (type === 'object') {
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties ?? {}).map(([property, inner]) =>
      fieldOf(inner, key === '' ? property : `${key}.${property}`, property, required.has(property)),
    );
    return { ...base, kind: 'object', fields };
  }
  if (type === 'array') {
    if (!schema.items) throw new UnsupportedSchemaError(`${key}: an array without items`);
    const item = fieldOf(schema.items, key, '', true);
    if (item.kind === 'list') throw new UnsupportedSchemaError(`${key}: a list of lists`);
    if (item.kind === 'object') {
      const columns = item.fields.map((column) => {
        if (column.kind !== 'scalar') throw new UnsupportedSchemaError(`${key}.${column.name}: an object or list inside a list's item`);
        return column;
      });
      return { ...base, kind: 'list', columns, itemIsObject: true };
    }
    return { ...base, kind: 'list', columns: [{ ...item, label: base.label }], itemIsObject: false };
  }
  return scalarOf(schema, type, nullable, base);
}

function scalarOf(schema: FormSchema, type: string | undefined, nullable: boolean, base: FieldBase): ScalarField {
  const hint = [schema.description, schema.pattern ? `pattern ${schema.pattern}` : undefined].filter(Boolean).join(' · ');
  const placeholder = schema.format ? (PLACEHOLDERS[schema.format] ?? schema.format) : type === 'number' ? '0.00' : type === 'integer' ? '0' : '';
  const wide = type === 'string' && !schema.format && !schema.pattern && !schema.enum && (schema.maxLength ?? Infinity) > 40;
  const scalar = { ...base, kind: 'scalar' as const, nullable, placeholder, hint, wide };
  if (schema.enum) {
    if (!schema.enum.every((value) => typeof value === 'string')) throw new UnsupportedSchemaError(`${base.key}: an enum of other than strings`);
    return { ...scalar, type: 'enum', options: schema.enum as string[] };
  }
  if (type === 'boolean') return { ...scalar, type: 'boolean', options: ['true', 'false'] };
  if (type === 'string' || type === 'number' || type === 'integer') return { ...scalar, type, options: [] };
  throw new UnsupportedSchemaError(`${base.key || '(root)'}: a value of type ${type ?? 'unknown'}`);
}

const asText = (value: unknown): string => (value === null || value === undefined || typeof value === 'object' ? '' : String(value));
const asRecord = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/** The inputs' text for a proposed value (what the model read), or blank inputs where it has nothing. */
export function formValuesFrom(form: ObjectField, source: unknown): FormValues {
  return objectValues(form.fields, asRecord(source));
}

function objectValues(fields: readonly FormField[], source: Record<string, unknown>): FormValues {
  return Object.fromEntries(fields.map((field) => [field.name, valueOf(field, source[field.name])]));
}

function valueOf(field: FormField, source: unknown): FormValue {
  if (field.kind === 'object') return objectValues(field.fields, asRecord(source));
  if (field.kind === 'list') return Array.isArray(source) ? source.map((item) => itemValue(field, item)) : [];
  return asText(source);
}

function itemValue(list: ListField, source: unknown): FormValue {
  return list.itemIsObject ? objectValues(list.columns, asRecord(source)) : asText(source);
}

/** A blank item for a list (the form's "add" button). */
export function newItem(list: ListField): FormValue {
  return itemValue(list, undefined);
}

const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;
/** Marks a blank optional property, which the value leaves out. */
const ABSENT = Symbol('absent');

/**
 * The value as it will be approved (and validated against the schema). A typed number becomes a number and
 * "true"/"false" a boolean; anything else stays as typed so the schema, not this function, says what is wrong
 * ("must be number"). Blank is null where null is allowed, absent where the property is optional, and "" where it
 * is required, for the schema to refuse.
 */
export function valueFrom(form: ObjectField, values: FormValues): Record<string, unknown> {
  return objectFrom(form.fields, values);
}

function objectFrom(fields: readonly FormField[], values: FormValues): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const field of fields) {
    const value = fieldFrom(field, values[field.name] ?? '');
    if (value !== ABSENT) object[field.name] = value;
  }
  return object;
}

function fieldFrom(field: FormField, value: FormValue): unknown {
  if (field.kind === 'object') return objectFrom(field.fields, typeof value === 'object' && !Array.isArray(value) ? value : {});
  if (field.kind === 'list') {
    const items = Array.isArray(value) ? value : [];
    if (items.length === 0 && !field.required) return ABSENT;
    return items.map((item) => {
      if (field.itemIsObject) return objectFrom(field.columns, typeof item === 'object' && !Array.isArray(item) ? item : {});
      return scalarFrom({ ...(field.columns[0] as ScalarField), required: true }, typeof item === 'string' ? item : '');
    });
  }
  return scalarFrom(field, typeof value === 'string' ? value : '');
}

function scalarFrom(field: ScalarField, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return field.nullable ? null : field.required ? '' : ABSENT;
  if (field.type === 'number' || field.type === 'integer') {
    const compact = trimmed.replace(/[\s_]/g, '');
    return NUMBER.test(compact) ? Number(compact) : trimmed;
  }
  if (field.type === 'boolean' && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
  return trimmed;
}

/**
 * The value the form starts from: what the job holds at the view's `startsFrom` path, else, when the model's
 * answer failed its schema, whatever parses out of its raw output (which stands for the answer at the path's first
 * part, e.g. `extraction`), else nothing.
 */
export function startingValue(job: Record<string, unknown>, startsFrom: string | undefined): unknown {
  if (startsFrom === undefined) return undefined;
  const [first = '', ...rest] = startsFrom.split('.');
  const held = valueAt(job, [first, ...rest]);
  if (held !== undefined) return held;
  const raw = parseRawOutput(typeof job.rawModelOutput === 'string' ? job.rawModelOutput : undefined);
  if (raw === undefined) return undefined;
  return valueAt(raw, rest) ?? raw;
}

/** The value at a dot-separated path inside a Job body (e.g. `extraction.confidence`), if there is one. */
export function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const part of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current ?? undefined;
}

/** The model's raw output, when it failed the schema, may still be JSON worth pre-filling the form with. */
export function parseRawOutput(raw: string | undefined): Record<string, unknown> | undefined {
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Which input an error belongs to: "/totalAmount" → "totalAmount", "/lineItems/2/amount" → "lineItems.2.amount".
 * A union type fails twice ("must be string", "must be null"); the first message per input is enough.
 */
export function errorsByInput(errors: readonly string[]): Map<string, string> {
  const byInput = new Map<string, string>();
  for (const message of errors) {
    const match = /^\/(\S*) (.*)$/.exec(message);
    const key = match?.[1] ? match[1].split('/').join('.') : '(form)';
    if (!byInput.has(key)) byInput.set(key, match?.[2] ?? message);
  }
  return byInput;
}
