import assert from '../support/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from '@jest/globals';
import { PATCHES } from '../../workflows/patches';

const WORKFLOWS_DIR = join(__dirname, '..', '..', 'workflows');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/**
 * Every patched()/deprecatePatch() call in workflows/, with the expression it names its patch by (a call is never
 * empty: `patched()` with nothing between the brackets is prose in a comment).
 */
function patchCalls(): Array<{ file: string; argument: string }> {
  return sourceFiles(WORKFLOWS_DIR).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\b(?:patched|deprecatePatch)\(\s*([^)\s][^)]*?)\s*\)/g)].map((match) => ({
      file: relative(WORKFLOWS_DIR, file),
      argument: match[1] ?? '',
    })),
  );
}

/** A relative import's file inside workflows/ (`./x` → x.ts or x/index.ts); imports leaving workflows/ reach no check. */
function workflowsFileOf(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  if (relative(WORKFLOWS_DIR, base).startsWith('..')) return undefined;
  return [`${base}.ts`, join(base, 'index.ts')].find((file) => existsSync(file));
}

/** The file and every workflows/ file its imports lead to (type-only ones too: counting more only keeps a patch). */
function importClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/\bfrom\s+'([^']+)'/g)) {
    const imported = workflowsFileOf(file, specifier ?? '');
    if (imported) importClosure(imported, seen);
  }
  return seen;
}

/** For each register key, the workflow types (workflows/index.ts's exports) whose code reaches a check of it. */
function workflowTypesByPatch(): Map<string, string[]> {
  const index = join(WORKFLOWS_DIR, 'index.ts');
  const byPatch = new Map<string, string[]>();
  for (const [, type, specifier] of readFileSync(index, 'utf8').matchAll(/export\s*\{\s*(\w+)\s*\}\s*from\s*'([^']+)'/g)) {
    const module = workflowsFileOf(index, specifier ?? '');
    assert.ok(type && module, `workflows/index.ts: cannot follow the export of ${type} from ${specifier}`);
    const checked = new Set(
      [...importClosure(module)].flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\b(?:patched|deprecatePatch)\(\s*PATCHES\.(\w+)\.id\s*\)/g)].map((match) => match[1] ?? '')),
    );
    for (const key of checked) byPatch.set(key, [...(byPatch.get(key) ?? []), type]);
  }
  return byPatch;
}

describe('the patch register (workflows/patches.ts)', () => {
  test('when the workflows are read, then every patch they check is named from the register, and every registered patch is checked', () => {
    const calls = patchCalls();
    assert.ok(calls.length >= Object.keys(PATCHES).length, `found ${calls.length} patched() calls`);
    const unregistered = calls.filter(({ argument }) => !/^PATCHES\.\w+\.id$/.test(argument)).map(({ file, argument }) => `${file}: ${argument}`);
    assert.deepEqual(unregistered, [], 'patch ids not taken from PATCHES');
    const used = new Set(calls.map(({ argument }) => argument.split('.')[1]));
    assert.deepEqual([...used].sort(), Object.keys(PATCHES).sort(), 'registered patches no workflow checks, or checks of patches not registered');
  });

  test('when the register is read, then each id is unique, and each entry says when it shipped and what it guards', () => {
    const records = Object.values(PATCHES);
    const ids = records.map((record) => record.id);
    assert.equal(new Set(ids).size, ids.length, `an id is registered twice: ${ids.join(', ')}`);
    for (const record of records) {
      assert.match(record.id, /^[a-z0-9]+(?:-[a-z0-9]+)*$/, record.id);
      assert.match(record.shipped.commit, /^[0-9a-f]{7,40}$/, `${record.id}: shipped.commit`);
      assert.match(record.shipped.date, /^\d{4}-\d{2}-\d{2}$/, `${record.id}: shipped.date`);
      assert.ok(record.guards.length > 20, `${record.id}: say what it guards`);
    }
  });

  test("when the workflows' imports are followed, then each entry's workflowTypes are exactly the types whose code reaches its check", () => {
    const derived = workflowTypesByPatch();
    // The collector's patch sits in its own workflow, which imports no job code: a closure that leaked would say more.
    assert.deepEqual(derived.get('collectorCarriesLateEntries'), ['batchCollectorWorkflow']);
    for (const [key, record] of Object.entries(PATCHES)) {
      assert.deepEqual([...record.workflowTypes].sort(), [...(derived.get(key) ?? [])].sort(), `${record.id}: workflowTypes`);
    }
  });
});
