import assert from '../support/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { describe, test } from '@jest/globals';

const repo = join(__dirname, '..', '..');
const walkThrough = readFileSync(join(repo, 'docs', 'job-types.md'), 'utf8');

/** The walk-through's new files: each ```ts block whose first line is `// <path>`, by absolute path, unindented. */
function exampleFiles(markdown: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [, indent, path, body] of markdown.matchAll(/^( *)```ts\n\1\/\/ ([\w./-]+\.ts)\n([\s\S]*?)^\1```/gm)) {
    const lines = body!.split('\n').map((line) => (line.startsWith(indent!) ? line.slice(indent!.length) : line));
    files.set(join(repo, path!), lines.join('\n'));
  }
  return files;
}

/** The one-line edits the walk-through makes to shared files, applied to their text in memory. */
function registerExample(): Map<string, string> {
  const edit = (path: string, change: (text: string) => string): [string, string] => {
    const before = readFileSync(join(repo, path), 'utf8');
    const after = change(before);
    assert.notEqual(after, before, `the walk-through's edit of ${path} found nothing to change`);
    return [join(repo, path), after];
  };
  return new Map([
    edit('common/job-types/registry.ts', (text) =>
      `import { wordCountJobType } from './word-count/definition';\n${text}`.replace(/(JOB_TYPE_DEFINITIONS = \[[^\]]*)\]/, '$1, wordCountJobType]'),
    ),
    edit('activities/index.ts', (text) =>
      `import { createWordCountActivities } from './word-count';\n${text}`.replace(
        '...createTicketsDigestActivities(deps),',
        '...createTicketsDigestActivities(deps),\n    ...createWordCountActivities(deps),',
      ),
    ),
    edit('workflows/index.ts', (text) => `${text}export { wordCountWorkflow } from './word-count/word-count-workflow';\n`),
  ]);
}

/** The product's folders (tsconfig.json without test/, bench/ and local/): what a new type must not break. */
const PRODUCT = ['common', 'lib', 'gateway', 'activities', 'workflows', 'workers', 'api', 'reviewer', 'cli', 'ops'].map((folder) => join(repo, folder) + '/');

/**
 * The project's type check (tsconfig.json's options) with `overrides` in place of, or beside, the files on disk:
 * of the product's files, or of `only` (faster: their imports are read, not reported on).
 */
function typeCheck(overrides: Map<string, string>, only?: string[]): string[] {
  const configPath = join(repo, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, repo, { noEmit: true }, configPath);
  const host = ts.createCompilerHost(parsed.options);
  const { readFile, fileExists, directoryExists, getSourceFile } = host;
  host.readFile = (path) => overrides.get(path) ?? readFile.call(host, path);
  host.fileExists = (path) => overrides.has(path) || fileExists.call(host, path);
  host.directoryExists = (path) =>
    [...overrides.keys()].some((file) => file.startsWith(`${path}/`)) || (directoryExists?.call(host, path) ?? ts.sys.directoryExists(path));
  host.getSourceFile = (path, language, onError, fresh) => {
    const text = overrides.get(path);
    return text === undefined ? getSourceFile.call(host, path, language, onError, fresh) : ts.createSourceFile(path, text, language);
  };
  const product = parsed.fileNames.filter((file) => PRODUCT.some((folder) => file.startsWith(folder)));
  const rootNames = [...new Set([...(only ?? product), ...overrides.keys()])];
  const program = ts.createProgram({ rootNames, options: parsed.options, host });
  const reported = (only ?? rootNames).map((file) => program.getSourceFile(file));
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...reported.flatMap((file) => (file ? [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)] : [])),
  ];
  return diagnostics.map((diagnostic) => `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
}

describe("docs/job-types.md's walk-through for adding a type", () => {
  const files = exampleFiles(walkThrough);

  test('when read, then it writes the same files every registered type has', () => {
    const written = [...files.keys()].map((path) => path.slice(repo.length + 1)).sort();
    assert.deepEqual(written, [
      'activities/word-count/contracts.ts',
      'activities/word-count/count-words.ts',
      'activities/word-count/index.ts',
      'common/job-types/word-count/definition.ts',
      'common/job-types/word-count/word-count-job.ts',
      'workflows/word-count/word-count-workflow.ts',
    ]);
  });

  test("when its files and its three registrations are added, then the product's code type-checks", () => {
    const diagnostics = typeCheck(new Map([...files, ...registerExample()]));
    assert.deepEqual(diagnostics, []);
  });

  test('when the example names a step its activities do not have, then the type check fails', () => {
    const definition = join(repo, 'common/job-types/word-count/definition.ts');
    const renamed = files.get(definition)?.replace("steps: ['countWords']", "steps: ['countLetters']") ?? '';
    assert.ok(renamed.includes('countLetters'), 'the example definition names its step as the test expects');
    const overrides = new Map([...files, ...registerExample(), [definition, renamed]]);
    const diagnostics = typeCheck(overrides, [...overrides.keys()]);
    assert.ok(
      diagnostics.some((line) => line.includes('countLetters')),
      diagnostics.join('\n') || 'no diagnostics',
    );
  });
});
