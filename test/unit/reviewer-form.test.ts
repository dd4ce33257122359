import assert from '../support/assert';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, test } from '@jest/globals';
import { Type } from '@sinclair/typebox';
import { build } from 'esbuild';
import { closed, stringEnum } from '../../common/api-contract/schema-kit';
import { approvalFieldsErrors } from '../../common/approval-fields';
import type { JobTypeDefinition, ReviewerView } from '../../common/job-types/job-type';
import { JOB_TYPE_DEFINITIONS } from '../../common/job-types/registry';
import { formatErrors, type SchemaError } from '../../common/schema-errors';
import { validateAgainst, validateInvoice } from '../../common/validation';
import { editableValidatorsPlugin } from '../../reviewer/build';
import {
  errorsByInput,
  type FormSchema,
  type FormValues,
  formOf,
  formValuesFrom,
  type ListField,
  newItem,
  parseRawOutput,
  type ScalarField,
  startingValue,
  valueFrom,
} from '../../reviewer/browser/schema-form-model';
import { invoiceJobType } from '../../common/job-types/invoice/definition';
import { byOldest, formatTimeLeft } from '../../reviewer/browser/time-left';

interface BrowserValidator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

/** The validators exactly as the page gets them: the esbuild bundle of the ajv standalone code, by type name. */
async function loadBrowserValidators(): Promise<Record<string, BrowserValidator>> {
  const result = await build({
    stdin: { contents: "export { default } from 'virtual:editable-validators';", resolveDir: join(__dirname, '..', '..'), loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
    plugins: [editableValidatorsPlugin],
  });
  const file = join(await mkdtemp(join(tmpdir(), 'slowlane-validator-')), 'validators.mjs');
  await writeFile(file, result.outputFiles[0]?.text ?? '');
  return ((await import(pathToFileURL(file).href)) as { default: Record<string, BrowserValidator> }).default;
}

/** As the page sees a schema: JSON, the way the views module carries it. */
const asPageSees = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as FormSchema;
const invoiceForm = formOf(asPageSees(invoiceJobType.reviewer.editable.schema));

const valid = {
  invoiceNumber: 'INV-1',
  issuer: 'Supplier BV',
  issueDate: '2026-11-30',
  dueDate: null,
  currency: 'EUR',
  totalAmount: 121,
  subtotalAmount: 100,
  taxAmount: 21,
  lineItems: [{ description: 'Consulting', quantity: 1, unitPrice: 100, amount: 100 }],
};

/** A second type's editable result, of the shapes the invoice does not use: an enum, a boolean, an integer, a nested object, a list of values, optional fields. */
const OrderDecision = closed({
  decision: stringEnum(['approve', 'decline'] as const),
  reasons: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 10 }),
  refund: closed({ full: Type.Boolean(), amount: Type.Optional(Type.Integer({ minimum: 0 })) }),
  note: Type.Optional(Type.String({ maxLength: 200, pattern: '^[^<>]*$', description: 'For the shop.' })),
});
const orderForm = formOf(asPageSees(OrderDecision));
const orderView: ReviewerView = { title: 'Order score', showsDocument: false, sections: [], editable: { component: 'OrderDecision', schema: OrderDecision } };

describe('the review form: built from the type’s editable schema, checked by the same schema as the server', () => {
  let browserValidators: Record<string, BrowserValidator>;
  beforeAll(async () => {
    browserValidators = await loadBrowserValidators();
  });

  test('when the page is bundled, then it has a validator for each type with an editable result and for no other', () => {
    const definitions: readonly JobTypeDefinition[] = JOB_TYPE_DEFINITIONS;
    assert.deepEqual(Object.keys(browserValidators).sort(), definitions.filter((definition) => definition.reviewer.editable).map((definition) => definition.name).sort());
  });

  test('when invoices are checked in the page and on the server, then both accept and refuse the same ones with the same words', () => {
    const browserValidate = browserValidators.invoice!;
    const cases: unknown[] = [
      valid,
      { ...valid, issueDate: '30/11/2026' },
      { ...valid, currency: 'euro', totalAmount: -5 },
      { ...valid, invoiceNumber: '', subtotalAmount: 'ten' },
      { ...valid, lineItems: [{ description: '', quantity: null, unitPrice: null, amount: 'x' }] },
      { ...valid, surprise: true },
      { issuer: 'only this' },
    ];
    for (const invoice of cases) {
      const server = validateInvoice(invoice);
      const ok = browserValidate(invoice);
      assert.equal(ok, server.ok, JSON.stringify(invoice));
      assert.deepEqual(ok ? [] : formatErrors(browserValidate.errors ?? []), server.ok ? [] : server.errors, JSON.stringify(invoice));
    }
  });

  test('when every registered type’s editable schema is read, then the form can show all of it', () => {
    const definitions: readonly JobTypeDefinition[] = JOB_TYPE_DEFINITIONS;
    for (const definition of definitions) {
      if (definition.reviewer.editable) assert.doesNotThrow(() => formOf(asPageSees(definition.reviewer.editable!.schema)), definition.name);
    }
  });

  test('when the invoice schema is read, then its fields, required marks, hints and line-item columns come from it', () => {
    const field = (name: string) => invoiceForm.fields.find((candidate) => candidate.name === name) as ScalarField;
    assert.deepEqual(invoiceForm.fields.map((candidate) => candidate.name), Object.keys(valid));
    assert.equal(field('invoiceNumber').label, 'Invoice number');
    assert.equal(field('invoiceNumber').required, true);
    assert.equal(field('dueDate').required, false, 'nullable: may be left blank');
    assert.equal(field('issueDate').placeholder, 'YYYY-MM-DD');
    assert.match(field('currency').hint, /pattern \^\[A-Z\]\{3\}\$/);
    const lines = invoiceForm.fields.find((candidate) => candidate.name === 'lineItems') as ListField;
    assert.equal(lines.kind, 'list');
    assert.deepEqual(lines.columns.map((column) => [column.name, column.type, column.nullable]), [
      ['description', 'string', false],
      ['quantity', 'number', true],
      ['unitPrice', 'number', true],
      ['amount', 'number', true],
    ]);
  });

  test('when the model’s fields go through the form untouched, then the invoice approved is the same', () => {
    assert.deepEqual(valueFrom(invoiceForm, formValuesFrom(invoiceForm, valid)), valid);
  });

  test('when a reviewer types numbers, then clear numbers become numbers and anything else stays text for the schema to refuse', () => {
    const values = formValuesFrom(invoiceForm, valid);
    values.totalAmount = ' 1 234.50 ';
    values.taxAmount = '12,50';
    values.dueDate = '';
    const invoice = valueFrom(invoiceForm, values);
    assert.equal(invoice.totalAmount, 1234.5);
    assert.equal(invoice.taxAmount, '12,50');
    assert.equal(invoice.dueDate, null);
    const errors = validateInvoice(invoice);
    assert.equal(errors.ok, false);
    assert.deepEqual([...errorsByInput(errors.ok ? [] : errors.errors).keys()], ['taxAmount']);
  });

  test('when a line is added, then it is blank, and blank nullable cells are null while a blank description is refused', () => {
    const values = formValuesFrom(invoiceForm, valid);
    const lines = invoiceForm.fields.find((candidate) => candidate.name === 'lineItems') as ListField;
    (values.lineItems as FormValues[]).push(newItem(lines) as FormValues);
    const invoice = valueFrom(invoiceForm, values);
    assert.deepEqual((invoice.lineItems as unknown[])[1], { description: '', quantity: null, unitPrice: null, amount: null });
    const checked = validateInvoice(invoice);
    assert.deepEqual([...errorsByInput(checked.ok ? [] : checked.errors).keys()], ['lineItems.1.description']);
  });

  test('when a second type’s schema has enums, booleans, integers, a nested object and a list of values, then the form reads and writes them', () => {
    const [decision, reasons, refund, note] = orderForm.fields;
    assert.deepEqual([decision?.kind, reasons?.kind, refund?.kind, note?.kind], ['scalar', 'list', 'object', 'scalar']);
    assert.deepEqual((decision as ScalarField).options, ['approve', 'decline']);
    assert.equal((decision as ScalarField).type, 'enum');
    assert.equal(note?.required, false);
    assert.match((note as ScalarField).hint, /For the shop\. · pattern/);
    const values = formValuesFrom(orderForm, { decision: 'review', reasons: ['three chargebacks'], refund: { full: false } });
    assert.equal(values.decision, 'review', 'as proposed: the page shows a value its options lack as unchosen');
    values.decision = 'decline';
    (values.refund as FormValues).amount = ' 12 ';
    const fields = valueFrom(orderForm, values);
    assert.deepEqual(fields, { decision: 'decline', reasons: ['three chargebacks'], refund: { full: false, amount: 12 } }, 'the blank optional note is left out');
    assert.deepEqual(approvalFieldsErrors(orderView, fields), [], 'what the API checks with');
  });

  test('when a second type’s form holds mistakes, then the API’s check refuses them at the inputs that hold them', () => {
    const values = formValuesFrom(orderForm, { decision: 'approve', reasons: [''], refund: { full: 'maybe', amount: '1.5' } });
    const fields = valueFrom(orderForm, values);
    const errors = approvalFieldsErrors(orderView, fields);
    assert.deepEqual([...errorsByInput(errors).keys()].sort(), ['reasons.0', 'refund.amount', 'refund.full']);
    const server = validateAgainst(OrderDecision, fields);
    assert.equal(server.ok, false);
  });

  test('when errors come back, then each lands on its input, line items included', () => {
    const byInput = errorsByInput(['/issueDate must match format "date"', '/lineItems/1/amount must be number,null', '(root) is missing "issuer"']);
    assert.equal(byInput.get('issueDate'), 'must match format "date"');
    assert.equal(byInput.get('lineItems.1.amount'), 'must be number,null');
    assert.equal(byInput.get('(form)'), '(root) is missing "issuer"');
  });

  test('when the model’s raw output is JSON that failed the schema, then whatever it holds pre-fills the form', () => {
    const from = invoiceJobType.reviewer.editable.startsFrom;
    const start = (job: Record<string, unknown>) => formValuesFrom(invoiceForm, startingValue(job, from));
    assert.equal(start({ rawModelOutput: '{"invoice":{"invoiceNumber":"X-1","totalAmount":"12"}}' }).invoiceNumber, 'X-1');
    assert.equal(start({ rawModelOutput: '{"invoiceNumber":"Y-2"}' }).invoiceNumber, 'Y-2');
    assert.equal(start({ extraction: { invoice: { invoiceNumber: 'Z-3' } }, rawModelOutput: '{"invoiceNumber":"no"}' }).invoiceNumber, 'Z-3');
    assert.equal(parseRawOutput('not json at all'), undefined);
    assert.equal(start({ rawModelOutput: 'not json at all' }).invoiceNumber, '');
  });
});

describe('the queue: time left and order', () => {
  const now = Date.parse('2026-12-02T12:00:00Z');
  test('when deadlines are near or far, then the time left reads naturally', () => {
    assert.equal(formatTimeLeft('2026-12-04T11:00:00Z', now), '1 d 23 h');
    assert.equal(formatTimeLeft('2026-12-02T15:12:00Z', now), '3 h 12 min');
    assert.equal(formatTimeLeft('2026-12-02T12:45:30Z', now), '45 min');
    assert.equal(formatTimeLeft('2026-12-02T12:00:50Z', now), '50 s');
    assert.equal(formatTimeLeft('2026-12-02T11:00:00Z', now), 'expired');
    assert.equal(formatTimeLeft(undefined, now), '—');
  });

  test('when jobs are sorted, then the one closest to expiring comes first, then the one submitted first', () => {
    const jobs = [
      { jobId: 'c', reviewDeadline: '2026-12-04T10:00:00Z', submittedAt: '2026-12-02T10:00:00Z' },
      { jobId: 'a', reviewDeadline: '2026-12-03T10:00:00Z', submittedAt: '2026-12-01T10:00:00Z' },
      { jobId: 'b', reviewDeadline: '2026-12-04T10:00:00Z', submittedAt: '2026-12-02T09:00:00Z' },
      { jobId: 'd' },
    ];
    assert.deepEqual([...jobs].sort(byOldest).map((job) => job.jobId), ['a', 'b', 'c', 'd']);
  });
});
