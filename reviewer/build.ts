import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { editableValidatorsSource } from './editable-validators-source';
import { reviewerViewsSource } from './reviewer-views-source';

const REPO_ROOT = join(__dirname, '..');
export const REVIEWER_ENTRY = join(__dirname, 'browser', 'main.ts');

/** `npm run build` writes the page's script here (relative to this folder: `dist/reviewer/assets/reviewer.js`). */
export const PREBUILT_REVIEWER_SCRIPT = join('assets', 'reviewer.js');

export interface BuiltScript {
  code: string;
  etag: string;
}

/** `import x from 'virtual:<name>'` in the page resolves to the JavaScript `source()` generates at bundle time. */
function virtualModule(name: string, source: () => string): Plugin {
  const filter = new RegExp(`^virtual:${name}$`);
  return {
    name,
    setup(builder) {
      builder.onResolve({ filter }, (args) => ({ path: args.path, namespace: name }));
      builder.onLoad({ filter: /.*/, namespace: name }, () => ({
        contents: source(),
        loader: 'js',
        // Generated code may import packages (the validator needs ajv's runtime helpers): resolve them from the project.
        resolveDir: REPO_ROOT,
      }));
    },
  };
}

/** `import editableValidators from 'virtual:editable-validators'`: each editable result's validator, by type name. */
export const editableValidatorsPlugin = virtualModule('editable-validators', editableValidatorsSource);
/** `import reviewerViews from 'virtual:reviewer-views'`: each registered type's reviewer view, by type name. */
export const reviewerViewsPlugin = virtualModule('reviewer-views', reviewerViewsSource);
/** Every virtual module the page imports. */
export const REVIEWER_PLUGINS: readonly Plugin[] = [editableValidatorsPlugin, reviewerViewsPlugin];

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
    plugins: [...REVIEWER_PLUGINS],
  });
  return builtScript(result.outputFiles[0]?.text ?? '');
}

/**
 * The page's script as served: the file `npm run build` made when there is one (production runs no bundler), else
 * bundled now (development from source, where the browser code changes under you).
 */
export async function loadReviewerScript(prebuilt = join(__dirname, PREBUILT_REVIEWER_SCRIPT)): Promise<BuiltScript> {
  return existsSync(prebuilt) ? builtScript(await readFile(prebuilt, 'utf8')) : buildReviewerScript();
}

function builtScript(code: string): BuiltScript {
  return { code, etag: `"${createHash('sha256').update(code).digest('base64url').slice(0, 22)}"` };
}
