import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { invoiceValidatorSource } from './invoice-validator-source';

const REPO_ROOT = join(__dirname, '..');
export const REVIEWER_ENTRY = join(__dirname, 'browser', 'main.ts');

export interface BuiltScript {
  code: string;
  etag: string;
}

/** `import validateInvoice from 'virtual:invoice-validator'` in the page resolves to the generated validator. */
export const invoiceValidatorPlugin: Plugin = {
  name: 'invoice-validator',
  setup(builder) {
    builder.onResolve({ filter: /^virtual:invoice-validator$/ }, (args) => ({ path: args.path, namespace: 'invoice-validator' }));
    builder.onLoad({ filter: /.*/, namespace: 'invoice-validator' }, () => ({
      contents: invoiceValidatorSource(),
      loader: 'js',
      // The generated code requires ajv's runtime helpers; resolve them from the project's node_modules.
      resolveDir: REPO_ROOT,
    }));
  },
};

/**
 * Bundles the reviewer page's script in memory (esbuild, well under a second). pdf.js is not bundled: the page
 * imports it from /review/vendor/ only when a PDF is shown.
 */
export async function buildReviewerScript(entry: string = REVIEWER_ENTRY): Promise<BuiltScript> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    minify: true,
    sourcemap: 'inline',
    write: false,
    logLevel: 'silent',
    plugins: [invoiceValidatorPlugin],
  });
  const code = result.outputFiles[0]?.text ?? '';
  return { code, etag: `"${createHash('sha256').update(code).digest('base64url').slice(0, 22)}"` };
}
