/**
 * The review form as data: what the model read → the values in the inputs → the invoice that is posted, and
 * schema errors → the input they belong to. No DOM here, so it is tested in Node (test/unit/reviewer-*.test.ts).
 */

export const SCALAR_FIELDS = [
  { name: 'invoiceNumber', label: 'Invoice number', kind: 'text', nullable: false },
  { name: 'issuer', label: 'Issuer', kind: 'text', nullable: false },
  { name: 'issueDate', label: 'Issue date', kind: 'date', nullable: false },
  { name: 'dueDate', label: 'Due date', kind: 'date', nullable: true },
  { name: 'currency', label: 'Currency', kind: 'text', nullable: false },
  { name: 'subtotalAmount', label: 'Subtotal', kind: 'number', nullable: true },
  { name: 'taxAmount', label: 'Tax', kind: 'number', nullable: true },
  { name: 'totalAmount', label: 'Total', kind: 'number', nullable: false },
] as const;

export type ScalarFieldName = (typeof SCALAR_FIELDS)[number]['name'];
export const LINE_ITEM_COLUMNS = ['description', 'quantity', 'unitPrice', 'amount'] as const;
export type LineItemColumn = (typeof LINE_ITEM_COLUMNS)[number];

/** Exactly what is typed in the inputs. */
export interface FormValues {
  scalars: Record<ScalarFieldName, string>;
  lineItems: Array<Record<LineItemColumn, string>>;
}

const asText = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** Fills the form from the model's extraction, or from whatever parses out of its raw output. */
export function formValuesFrom(source: Record<string, unknown> | undefined): FormValues {
  const scalars = Object.fromEntries(SCALAR_FIELDS.map((field) => [field.name, asText(source?.[field.name])])) as FormValues['scalars'];
  const items = Array.isArray(source?.lineItems) ? (source.lineItems as unknown[]) : [];
  const lineItems = items.map((item) => {
    const row = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    return Object.fromEntries(LINE_ITEM_COLUMNS.map((column) => [column, asText(row[column])])) as Record<LineItemColumn, string>;
  });
  return { scalars, lineItems };
}

/** The model's raw output, when it failed the schema, may still be JSON worth pre-filling the form with. */
export function parseRawOutput(raw: string | undefined): Record<string, unknown> | undefined {
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const inner = (parsed as Record<string, unknown>).invoice;
    return (typeof inner === 'object' && inner !== null ? inner : parsed) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A typed number becomes a number; anything else stays a string so the schema, not this function, says what is
 * wrong with it ("must be number"). Blank nullable fields are null; a blank required field stays "" for the schema.
 */
function toValue(text: string, kind: 'text' | 'date' | 'number', nullable: boolean): string | number | null {
  const trimmed = text.trim();
  if (trimmed === '') return nullable ? null : '';
  if (kind === 'number') {
    const compact = trimmed.replace(/[\s_]/g, '');
    return NUMBER.test(compact) ? Number(compact) : trimmed;
  }
  return trimmed;
}

/** The invoice as it will be posted (and validated against common/schemas/invoice.schema.json). */
export function invoiceFrom(values: FormValues): Record<string, unknown> {
  const invoice: Record<string, unknown> = {};
  for (const field of SCALAR_FIELDS) invoice[field.name] = toValue(values.scalars[field.name], field.kind, field.nullable);
  invoice.lineItems = values.lineItems.map((row) => ({
    description: row.description.trim(),
    quantity: toValue(row.quantity, 'number', true),
    unitPrice: toValue(row.unitPrice, 'number', true),
    amount: toValue(row.amount, 'number', true),
  }));
  return invoice;
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
