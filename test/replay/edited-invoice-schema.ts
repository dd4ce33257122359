import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkflowBundle } from '@temporalio/worker';
import { bundleWorkflows, type WebpackPlugins, WORKFLOWS_PATH } from '../../workers/create-workers';

export const INVOICE_SCHEMA_PATH = join(__dirname, '..', '..', 'common', 'schemas', 'invoice.schema.json');

/**
 * The invoice schema as a product change might edit it: a purchase-order number becomes required, so fields
 * that reviewers approved before the edit no longer pass.
 */
export function editedInvoiceSchema(): Record<string, unknown> {
  const schema = JSON.parse(readFileSync(INVOICE_SCHEMA_PATH, 'utf8')) as {
    required: string[];
    properties: Record<string, unknown>;
  };
  return {
    ...schema,
    required: [...schema.required, 'purchaseOrder'],
    properties: { ...schema.properties, purchaseOrder: { type: 'string', minLength: 1 } },
  };
}

/** The workers' workflow bundle, built with the edited schema in place of common/schemas/invoice.schema.json. */
export async function bundleWithEditedSchema(): Promise<WorkflowBundle> {
  const edited = join(mkdtempSync(join(tmpdir(), 'slowlane-schema-')), 'invoice.schema.json');
  writeFileSync(edited, JSON.stringify(editedInvoiceSchema()));
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
  if (replaced === 0) throw new Error('the bundle never loaded common/schemas/invoice.schema.json; nothing was edited');
  return bundle;
}
