import assert from '../support/assert';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, test } from '@jest/globals';
import { build } from 'esbuild';
import { formatErrors, type SchemaError } from '../../common/schema-errors';
import { validateInvoice } from '../../common/validation';
import { invoiceValidatorPlugin } from '../../reviewer/build';
import {
  errorsByInput,
  formValuesFrom,
  invoiceFrom,
  parseRawOutput,
} from '../../reviewer/browser/invoice-form-model';
import { byOldest, formatTimeLeft } from '../../reviewer/browser/time-left';

interface BrowserValidator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

/** The validator exactly as the page gets it: the esbuild bundle of the ajv standalone code. */
async function loadBrowserValidator(): Promise<BrowserValidator> {
  const result = await build({
    stdin: { contents: "export { default } from 'virtual:invoice-validator';", resolveDir: join(__dirname, '..', '..'), loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
    plugins: [invoiceValidatorPlugin],
  });
  const file = join(await mkdtemp(join(tmpdir(), 'slowlane-validator-')), 'validator.mjs');
  await writeFile(file, result.outputFiles[0]?.text ?? '');
  return ((await import(pathToFileURL(file).href)) as { default: BrowserValidator }).default;
}

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

describe('the review form: the same schema as the server, in the browser', () => {
  let browserValidate: BrowserValidator;
  beforeAll(async () => {
    browserValidate = await loadBrowserValidator();
  });

  test('when invoices are checked in the page and on the server, then both accept and refuse the same ones with the same words', () => {
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

  test('when the model’s fields go through the form untouched, then the invoice posted is the same', () => {
    assert.deepEqual(invoiceFrom(formValuesFrom(valid)), valid);
  });

  test('when a reviewer types numbers, then clear numbers become numbers and anything else stays text for the schema to refuse', () => {
    const values = formValuesFrom(valid);
    values.scalars.totalAmount = ' 1 234.50 ';
    values.scalars.taxAmount = '12,50';
    values.scalars.dueDate = '';
    const invoice = invoiceFrom(values);
    assert.equal(invoice.totalAmount, 1234.5);
    assert.equal(invoice.taxAmount, '12,50');
    assert.equal(invoice.dueDate, null);
    const errors = validateInvoice(invoice);
    assert.equal(errors.ok, false);
    assert.deepEqual([...errorsByInput(errors.ok ? [] : errors.errors).keys()], ['taxAmount']);
  });

  test('when errors come back, then each lands on its input, line items included', () => {
    const byInput = errorsByInput(['/issueDate must match format "date"', '/lineItems/1/amount must be number,null', '(root) is missing "issuer"']);
    assert.equal(byInput.get('issueDate'), 'must match format "date"');
    assert.equal(byInput.get('lineItems.1.amount'), 'must be number,null');
    assert.equal(byInput.get('(form)'), '(root) is missing "issuer"');
  });

  test('when the model’s raw output is JSON that failed the schema, then whatever it holds pre-fills the form', () => {
    assert.equal(parseRawOutput('{"invoice":{"invoiceNumber":"X-1","totalAmount":"12"}}')?.invoiceNumber, 'X-1');
    assert.equal(formValuesFrom(parseRawOutput('{"invoiceNumber":"Y-2"}')).scalars.invoiceNumber, 'Y-2');
    assert.equal(parseRawOutput('not json at all'), undefined);
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
