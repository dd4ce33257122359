#!/usr/bin/env node
// Runs before any dependency is installed, so it is plain JavaScript: it checks Node, installs the locked
// npm dependencies when they are missing or stale, then hands over to the TypeScript stack CLI.
'use strict';
const { spawnSync, spawn } = require('node:child_process');
const { createHash } = require('node:crypto');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const [major, minor] = process.versions.node.split('.').map(Number);
// package.json engines: ^20.19 || ^22.13 || >=24 (the lint and OpenAPI tools need 22.13 on the 22 line).
const supported = (major === 20 && minor >= 19) || (major === 22 && minor >= 13) || major >= 24;
if (major > 24) console.warn(`Slowlane is tested on Node.js 20, 22 and 24; ${process.version} is newer.`);
if (!supported) {
  console.error(`Slowlane runs on Node.js 20.19+, 22.13+ or 24+ (24 recommended); this is ${process.version}.`);
  console.error('Node 24 from the npm registry: export PATH="$(node local/stack/node-runtime.js 24):$PATH"');
  process.exit(1);
}

const lockFile = join(root, 'package-lock.json');
const marker = join(root, 'node_modules', '.slowlane-lock-sha256');
const lockHash = createHash('sha256').update(readFileSync(lockFile)).digest('hex');
const installed = existsSync(marker) && readFileSync(marker, 'utf8') === lockHash;
if (!installed) {
  console.log('installing npm dependencies from package-lock.json (npm ci)…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(marker, lockHash);
}

const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'local', 'stack', 'cli.ts'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
// Ctrl-C reaches the CLI too (same process group); it stops the stack in order, and we wait for it.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
