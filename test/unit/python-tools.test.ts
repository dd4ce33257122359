import assert from '../support/assert';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from '@jest/globals';
import { ensurePythonTool, type PythonTool } from '../../local/stack/python-tools';

/**
 * A stand-in for `python3`: `-m venv DIR` makes DIR/bin/python (itself), and `-m pip install … -r FILE` installs
 * the tool's script unless FILE asks for a package that "is not on the index". Every call is noted.
 */
const fakePython = (callsFile: string) => `#!/bin/sh
echo "$*" >> "${callsFile}"
if [ "$2" = venv ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python" && exit 0; fi
if [ "$2" = pip ]; then
  for last; do :; done
  grep -q missing-package "$last" && { echo "No matching distribution found for missing-package" >&2; exit 1; }
  bin=$(dirname "$0"); printf '#!/bin/sh\\n' > "$bin/tool"; chmod +x "$bin/tool"; exit 0
fi
exit 2
`;

describe('ensurePythonTool: a PyPI tool in its own virtualenv in the tool cache', () => {
  let root: string;
  let pathDir: string;
  let cacheDir: string;
  let tool: PythonTool;
  const calls = async () => (await readFile(join(root, 'calls'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const ensure = () => ensurePythonTool(tool, cacheDir, pathDir, () => undefined);

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'slowlane-python-tools-'));
    pathDir = join(root, 'path-bin');
    cacheDir = join(root, 'cache');
    await mkdir(pathDir, { recursive: true });
    await writeFile(join(pathDir, 'python3'), fakePython(join(root, 'calls')));
    await chmod(join(pathDir, 'python3'), 0o755);
    tool = { name: 'tool', requirementsFile: join(root, 'requirements.txt') };
    await writeFile(tool.requirementsFile, 'tool==1.0.0\n');
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test('when nothing is cached, then a virtualenv is made and the pinned requirements installed; the second call installs nothing', async () => {
    const script = await ensure();
    assert.match(script, /\/cache\/venvs\/tool-[0-9a-f]{12}\/bin\/tool$/);
    const made = await calls();
    assert.equal(made.length, 2);
    assert.match(made[0] as string, /^-m venv /);
    assert.match(made[1] as string, new RegExp(`^-m pip install .*-r ${tool.requirementsFile}$`));
    assert.equal(await ensure(), script);
    assert.equal((await calls()).length, 2, 'the cached install is reused');
  });

  test('when the pins change, then another virtualenv is installed beside the old one', async () => {
    const first = await ensure();
    await writeFile(tool.requirementsFile, 'tool==1.1.0\n');
    const second = await ensure();
    assert.notEqual(second, first);
    assert.equal((await readdir(join(cacheDir, 'venvs'))).length, 2);
  });

  test('when pip fails, then the error says why and no half-made virtualenv is left to be taken for an install', async () => {
    await writeFile(tool.requirementsFile, 'missing-package==9.9\n');
    await assert.rejects(ensure(), /installing tool failed: No matching distribution found for missing-package/);
    assert.deepEqual(await readdir(join(cacheDir, 'venvs')), []);
  });

  test('when python3 is not on PATH, then the error says so', async () => {
    await assert.rejects(
      ensurePythonTool(tool, cacheDir, join(root, 'empty'), () => undefined),
      /python3 is not on PATH/,
    );
  });
});
