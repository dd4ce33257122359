import assert from '../support/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, test } from '@jest/globals';

const ROOT = join(__dirname, '..', '..');
const SKIPPED_DIRS = new Set(['node_modules', '.data', '.git', 'dist', 'test-artifacts', 'results', 'vendor']);
/** Drive the provider simulator with the real SDK, as a client would; they make no model call of the product's. */
const ALLOWED_OUTSIDE_GATEWAY = new Set([
  'test/unit/simulator-sdk.test.ts',
  'test/unit/scanned-documents.test.ts',
  'test/unit/simulator-batches.test.ts',
  'test/unit/simulator-citations.test.ts',
]);
const SDK_IMPORT = /(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]@anthropic-ai\/sdk(?:\/[^'"]*)?['"]/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory())
      return SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('.') ? [] : sourceFiles(join(dir, entry.name));
    return /\.(?:[cm]?[jt]s|tsx)$/.test(entry.name) ? [join(dir, entry.name)] : [];
  });
}

describe('one door to the model', () => {
  test('when the source tree is scanned, then only the gateway imports the Anthropic SDK', () => {
    const files = sourceFiles(ROOT).map((file) => relative(ROOT, file).split(sep).join('/'));
    assert.ok(files.includes('gateway/model-gateway.ts'), 'the scan sees the gateway');
    const importers = files.filter((file) => SDK_IMPORT.test(readFileSync(join(ROOT, file), 'utf8')));
    assert.ok(importers.includes('gateway/model-gateway.ts'), 'the pattern recognises the gateway’s own import');
    const outside = importers.filter((file) => !file.startsWith('gateway/') && !ALLOWED_OUTSIDE_GATEWAY.has(file));
    assert.deepEqual(outside, [], 'model calls go through gateway/model-gateway.ts; import it instead of the SDK');
  });
});
