// Jest for every test tier (`npm test`, local/stack/test-runner.ts, picks the files and the workers).
// @swc/jest only strips types, file by file: the type check is `tsc --noEmit`, run before the tests.
// One file alone: `NODE_OPTIONS=--experimental-vm-modules npx jest test/unit/samples.test.ts`. The flag is for
// the files that reach ESM through import() (unpdf, the reviewer's bundled validator); swc keeps import() as is
// (ignoreDynamic) so Node's loader, not a require(), runs it, as under tsx.
'use strict';

/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  transform: {
    '^.+\\.(t|j|mj|cj)s$': [
      '@swc/jest',
      {
        swcrc: false,
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs', ignoreDynamic: true },
      },
    ],
  },
  // node:test had no timeout at all; integration tests wait on real servers for tens of seconds.
  testTimeout: 180_000,
};
