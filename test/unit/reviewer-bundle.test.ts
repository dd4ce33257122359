import assert from '../support/assert';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from '@jest/globals';
import { build } from 'esbuild';
import { JOB_TYPE_DEFINITIONS } from '../../common/job-types/registry';
import { REVIEWER_ENTRY, REVIEWER_PLUGINS } from '../../reviewer/build';

const REPO_ROOT = join(__dirname, '..', '..');

describe('the reviewer page’s bundle and the job types', () => {
  test('when the page is bundled, then it carries every type’s reviewer view but none of the definitions’ schemas', async () => {
    const result = await build({
      entryPoints: [REVIEWER_ENTRY],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
      metafile: true,
      plugins: [...REVIEWER_PLUGINS],
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(inputs.includes('reviewer-views:virtual:reviewer-views'), inputs.join('\n'));
    // TypeBox and the definitions more than double the page's script; the views are all it needs.
    assert.deepEqual(
      inputs.filter((input) => input.includes('@sinclair/typebox') || input.includes('/api-contract/') || /^common\/job-types\/(registry|.*\/definition)\.ts$/.test(input)),
      [],
      'only the generated views reach the browser',
    );
  });

  test('when the views module is generated, then it holds each registered type’s view under its name', async () => {
    const result = await build({
      stdin: { contents: "export { default } from 'virtual:reviewer-views';", resolveDir: REPO_ROOT, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      write: false,
      logLevel: 'silent',
      plugins: [...REVIEWER_PLUGINS],
    });
    const file = join(await mkdtemp(join(tmpdir(), 'slowlane-views-')), 'views.mjs');
    await writeFile(file, result.outputFiles[0]?.text ?? '');
    const views = ((await import(pathToFileURL(file).href)) as { default: Record<string, unknown> }).default;
    // Plain data: an editable result's schema arrives as its JSON Schema, without TypeBox's symbols.
    const asData = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
    assert.deepEqual(views, asData(Object.fromEntries(JOB_TYPE_DEFINITIONS.map((definition) => [definition.name, definition.reviewer]))));
    assert.equal((views['invoice'] as { editable?: { component: string } }).editable?.component, 'Invoice');
    assert.equal((views['order.score'] as { showsDocument: boolean }).showsDocument, false);
  });
});
