import assert from '../support/assert';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from '@jest/globals';
import { ensureGoTool, type GoTool } from '../../local/stack/tools';

const TOOL: GoTool = { name: 'tool', module: 'github.com/example/tool/cmd/tool', version: 'v1.2.0', usePath: true };

/**
 * A stand-in for `go`: a "binary" is a text file holding the version it was built from, `go version -m` reports
 * it the way the real one does, and `go install` writes one and notes the build.
 */
const FAKE_GO = `#!/bin/sh
if [ "$1" = version ]; then
  built=$(cat "$3") || exit 1
  printf '%s: go1.26\\n\\tpath\\tgithub.com/example/tool/cmd/tool\\n\\tmod\\tgithub.com/example/tool\\t%s\\th1:x=\\n' "$3" "$built"
  exit 0
fi
if [ "$1" = install ]; then
  echo "\${2##*@}" > "$GOBIN/tool"
  echo "$2" >> "$GOBIN/../installs"
  exit 0
fi
exit 2
`;

describe('ensureGoTool: the tools run at their pinned versions', () => {
  let root: string;
  let goDir: string;
  let pathDir: string;
  let cacheDir: string;
  const binary = (dir: string, builtFrom: string) => writeFile(join(dir, 'tool'), `${builtFrom}\n`);
  const installs = async () => (await readFile(join(cacheDir, 'installs'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const ensure = (pathEnv = `${goDir}:${pathDir}`) => ensureGoTool(TOOL, cacheDir, pathEnv, () => undefined);

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'slowlane-tools-'));
    goDir = join(root, 'go-bin');
    pathDir = join(root, 'path-bin');
    cacheDir = join(root, 'cache');
    await Promise.all([goDir, pathDir, join(cacheDir, 'bin')].map((dir) => mkdir(dir, { recursive: true })));
    await writeFile(join(goDir, 'go'), FAKE_GO);
    await chmod(join(goDir, 'go'), 0o755);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test('when the cache holds the pinned version, then it is used and nothing is built', async () => {
    await binary(join(cacheDir, 'bin'), 'v1.2.0');
    assert.equal(await ensure(), join(cacheDir, 'bin', 'tool'));
    assert.deepEqual(await installs(), []);
  });

  test('when the cache holds an older version, then it is rebuilt at the pinned one', async () => {
    await binary(join(cacheDir, 'bin'), 'v1.1.0');
    assert.equal(await ensure(), join(cacheDir, 'bin', 'tool'));
    assert.deepEqual(await installs(), ['github.com/example/tool/cmd/tool@v1.2.0']);
    assert.equal((await readFile(join(cacheDir, 'bin', 'tool'), 'utf8')).trim(), 'v1.2.0');
  });

  test('when PATH has the tool at the pinned version, then that one is used', async () => {
    await binary(pathDir, 'v1.2.0');
    assert.equal(await ensure(), join(pathDir, 'tool'));
    assert.deepEqual(await installs(), []);
  });

  test('when PATH has the tool at another version, then the pinned one is built and used instead', async () => {
    await binary(pathDir, 'v0.9.0');
    assert.equal(await ensure(), join(cacheDir, 'bin', 'tool'));
    assert.deepEqual(await installs(), ['github.com/example/tool/cmd/tool@v1.2.0']);
  });

  test('when Go is missing, then a binary that is there is used, and none there is an error naming the module', async () => {
    await assert.rejects(ensure(pathDir), /tool is not installed and Go is not on PATH to build it \(github\.com\/example\/tool\/cmd\/tool@v1\.2\.0\)/);
    await binary(join(cacheDir, 'bin'), 'v1.1.0');
    assert.equal(await ensure(pathDir), join(cacheDir, 'bin', 'tool'));
  });
});
