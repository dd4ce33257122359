import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkflowBundle } from '@temporalio/worker';
import { Invoice, InvoiceLineItem } from '../../common/job-types/invoice/invoice';
import { bundleWorkflows, type WebpackPlugins, WORKFLOWS_PATH } from '../../workers/create-workers';

/** The module that holds the invoice's schema (TypeBox), which the bundle's review validator reads. */
export const INVOICE_SCHEMA_PATH = join(__dirname, '..', '..', 'common', 'job-types', 'invoice', 'invoice.ts');

const asJson = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

/**
 * The invoice schema as a product change might edit it: a purchase-order number becomes required, so fields
 * that reviewers approved before the edit no longer pass.
 */
export function editedInvoiceSchema(): Record<string, unknown> {
  const schema = asJson(Invoice) as { required: string[]; properties: Record<string, unknown> };
  return {
    ...schema,
    required: [...schema.required, 'purchaseOrder'],
    properties: { ...schema.properties, purchaseOrder: { type: 'string', minLength: 1 } },
  };
}

/** The workers' workflow bundle, built with the edited schema's module in place of the invoice's schema module. */
export async function bundleWithEditedSchema(): Promise<WorkflowBundle> {
  const edited = join(mkdtempSync(join(tmpdir(), 'slowlane-schema-')), 'invoice.js');
  // Plain JSON Schema objects: ajv compiles them as it compiles the TypeBox ones, which are JSON Schema too.
  writeFileSync(
    edited,
    [`export const InvoiceLineItem = ${JSON.stringify(asJson(InvoiceLineItem))};`, `export const Invoice = ${JSON.stringify(editedInvoiceSchema())};`].join('\n'),
  );
  let replaced = 0;
  // What webpack's NormalModuleReplacementPlugin does, matched on the resolved path so only the product's schema
  // file is swapped (and without importing webpack, which only @temporalio/worker depends on).
  const swapSchema: WebpackPlugins[number] = {
    apply(compiler) {
      compiler.hooks.normalModuleFactory.tap('edited-invoice-schema', (factory) => {
        factory.hooks.afterResolve.tap('edited-invoice-schema', (resolved) => {
          if (resolved.createData.resource !== INVOICE_SCHEMA_PATH) return;
          resolved.createData.resource = edited;
          replaced += 1;
        });
      });
    },
  };
  const bundle = await bundleWorkflows(WORKFLOWS_PATH, { plugins: [swapSchema] });
  if (replaced === 0) throw new Error('the bundle never loaded common/job-types/invoice/invoice.ts; nothing was edited');
  return bundle;
}
