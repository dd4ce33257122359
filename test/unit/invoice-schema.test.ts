import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { Invoice } from '../../common/job-types/invoice/invoice';
import { formatErrors } from '../../common/schema-errors';
import { validateInvoice } from '../../common/validation';
import oldInvoiceSchema from './fixtures/invoice.schema.json';

/** The invoice's JSON Schema as the file common/schemas/invoice.schema.json was before the TypeBox one replaced it. */
const validateOld = (() => {
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats(ajv, ['date', 'date-time']);
  return ajv.compile(oldInvoiceSchema);
})();

const valid = {
  invoiceNumber: 'INV-2026-0042',
  issuer: 'Supplier BV',
  issueDate: '2026-11-30',
  dueDate: '2026-12-30',
  currency: 'EUR',
  totalAmount: 121,
  subtotalAmount: 100,
  taxAmount: 21,
  lineItems: [{ description: 'Consulting', quantity: 1, unitPrice: 100, amount: 100 }],
};
const { dueDate: _dueDate, ...withoutDueDate } = valid;
const line = valid.lineItems[0]!;

const accepted: Record<string, unknown> = {
  'a complete invoice': valid,
  'null where nullable': { ...valid, dueDate: null, subtotalAmount: null, taxAmount: null, lineItems: [{ description: 'x', quantity: null, unitPrice: null, amount: null }] },
  'no line items': { ...valid, lineItems: [] },
  'a zero total': { ...valid, totalAmount: 0 },
  'negative line amounts (a discount)': { ...valid, lineItems: [{ ...line, quantity: -1, amount: -5.5 }] },
  'the longest strings': { ...valid, invoiceNumber: 'n'.repeat(100), issuer: 'i'.repeat(200), lineItems: [{ ...line, description: 'd'.repeat(500) }] },
  '500 line items': { ...valid, lineItems: Array.from({ length: 500 }, () => line) },
};

const refused: Record<string, unknown> = {
  'not an object': 'INV-1',
  null: null,
  'an array': [valid],
  'a missing required field': withoutDueDate,
  'an empty object': {},
  'an unknown field': { ...valid, purchaseOrder: 'PO-1' },
  'an empty invoice number': { ...valid, invoiceNumber: '' },
  'a too long invoice number': { ...valid, invoiceNumber: 'n'.repeat(101) },
  'a too long issuer': { ...valid, issuer: 'i'.repeat(201) },
  'a number for a string': { ...valid, invoiceNumber: 42 },
  'a date in another format': { ...valid, issueDate: '30/11/2026' },
  'an impossible date': { ...valid, issueDate: '2026-02-30' },
  'a null issue date': { ...valid, issueDate: null },
  'a due date in another format': { ...valid, dueDate: '30.12.2026' },
  'a lower-case currency': { ...valid, currency: 'eur' },
  'a four-letter currency': { ...valid, currency: 'EURO' },
  'a negative total': { ...valid, totalAmount: -1 },
  'a null total': { ...valid, totalAmount: null },
  'a total as text': { ...valid, totalAmount: '121.00' },
  'a negative subtotal': { ...valid, subtotalAmount: -0.01 },
  'a negative tax': { ...valid, taxAmount: -3 },
  'line items as an object': { ...valid, lineItems: line },
  'a line without a description': { ...valid, lineItems: [{ quantity: 1, unitPrice: 1, amount: 1 }] },
  'a line with an empty description': { ...valid, lineItems: [{ ...line, description: '' }] },
  'a line with a too long description': { ...valid, lineItems: [{ ...line, description: 'd'.repeat(501) }] },
  'a line with an unknown field': { ...valid, lineItems: [{ ...line, vat: 21 }] },
  'a line amount as text': { ...valid, lineItems: [{ ...line, amount: '100' }] },
  'a line that is not an object': { ...valid, lineItems: ['Consulting'] },
  '501 line items': { ...valid, lineItems: Array.from({ length: 501 }, () => line) },
};

describe('the invoice schema in TypeBox, against the JSON Schema file it replaced', () => {
  test.each(Object.entries(accepted))('when the invoice has %s, then both accept it', (_name, invoice) => {
    assert.equal(validateOld(invoice), true, JSON.stringify(validateOld.errors));
    const checked = validateInvoice(invoice);
    assert.ok(checked.ok, checked.ok ? '' : checked.errors.join('; '));
  });

  test.each(Object.entries(refused))('when the invoice has %s, then both refuse it with the same words', (_name, invoice) => {
    assert.equal(validateOld(invoice), false);
    const checked = validateInvoice(invoice);
    assert.equal(checked.ok, false);
    assert.deepEqual([...(checked.ok ? [] : checked.errors)].sort(), formatErrors(validateOld.errors ?? []).sort());
  });

  test('when the derived JSON Schema is compared with the file, then only the file’s own `$schema` and `$id` differ', () => {
    const { $schema: _dialect, $id: _id, ...file } = oldInvoiceSchema;
    assert.deepEqual(canonical(JSON.parse(JSON.stringify(Invoice))), canonical(file));
  });
});

/** Key order and `required` order do not change what a schema means. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, inner]) => [key, key === 'required' && Array.isArray(inner) ? [...(inner as string[])].sort() : canonical(inner)]),
  );
}
