import { type Static, type TSchema, type TUnsafe, Type } from '@sinclair/typebox';
import { closed } from '../../api-contract/schema-kit';

/**
 * A value of `schema`'s one JSON type, or null: `type: [t, "null"]` rather than TypeBox's `anyOf`, so ajv says
 * "must be string,null" once instead of failing each branch, and the JSON Schema reads as it always did.
 */
function orNull<T extends TSchema & { type: string }>(schema: T): TUnsafe<Static<T> | null> {
  const { type, ...rest } = schema;
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

export const InvoiceLineItem = closed({
  description: Type.String({ minLength: 1, maxLength: 500 }),
  quantity: orNull(Type.Number()),
  unitPrice: orNull(Type.Number()),
  amount: orNull(Type.Number()),
});
export type InvoiceLineItem = Static<typeof InvoiceLineItem>;

/** The invoice as it is posted to the ledger: the invoice job's result fields, and what a reviewer edits. */
export const Invoice = Type.Object(
  {
    invoiceNumber: Type.String({ minLength: 1, maxLength: 100, description: 'As printed on the invoice.' }),
    issuer: Type.String({ minLength: 1, maxLength: 200, description: 'The party that issued the invoice.' }),
    issueDate: Type.String({ format: 'date', description: 'YYYY-MM-DD' }),
    dueDate: orNull(Type.String({ format: 'date', description: 'YYYY-MM-DD, or null when none is printed.' })),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. EUR.' }),
    totalAmount: Type.Number({ minimum: 0, description: 'Amount due including tax.' }),
    subtotalAmount: orNull(Type.Number({ minimum: 0, description: 'Amount before tax, or null.' })),
    taxAmount: orNull(Type.Number({ minimum: 0, description: 'Tax amount, or null.' })),
    lineItems: Type.Array(InvoiceLineItem, { maxItems: 500 }),
  },
  {
    title: 'Invoice',
    description: 'An invoice as it is posted to the ledger: every required field present and well-formed.',
    additionalProperties: false,
  },
);
export type Invoice = Static<typeof Invoice>;
