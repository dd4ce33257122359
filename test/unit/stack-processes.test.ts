import assert from '../support/assert';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { Supervisor } from '../../local/stack/supervisor';
import { alive } from '../support/process-alive';

const REPO_ROOT = join(__dirname, '..', '..');
const idle = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };

/** Waits until `pid` is gone; a process that outlives its parent stays and fails the test. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return !alive(pid);
}

describe('Supervisor', () => {
  let logDir: string;
  beforeAll(async () => {
    logDir = await mkdtemp(join(tmpdir(), 'slowlane-supervisor-'));
  });
  afterAll(async () => {
    await rm(logDir, { recursive: true, force: true });
  });

  test('when a process dies while starting, then start rejects with its last words and onUnexpectedExit stays silent', async () => {
    const heard: string[] = [];
    const supervisor = new Supervisor(logDir, (name) => heard.push(name));
    await assert.rejects(
      supervisor.start({
        name: 'dies-starting',
        command: process.execPath,
        args: ['-e', "console.error('no config here'); process.exit(3)"],
        ready: async () => false,
      }),
      /dies-starting exited during start-up:[\s\S]*no config here/,
    );
    await supervisor.stopAll();
    assert.deepEqual(heard, []);
  });

  test('when a ready process dies, then onUnexpectedExit hears its name and exit code', async () => {
    const heard: Array<[string, number | null]> = [];
    const supervisor = new Supervisor(logDir, (name, code) => heard.push([name, code]));
    await supervisor.start({
      name: 'crashes-later',
      command: process.execPath,
      args: ['-e', 'setTimeout(() => process.exit(4), 200)'],
      ready: async () => true,
    });
    for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    await supervisor.stopAll();
    assert.deepEqual(heard, [['crashes-later', 4]]);
  });

  test('when a ready process dies and a restart policy is set, then it is started again and ready, and onRestart hears it', async () => {
    const restarts: Array<[string, number | null]> = [];
    const gaveUp: string[] = [];
    const supervisor = new Supervisor(logDir, {
      restart: { maxCrashes: 3, windowMs: 60_000, backoffMs: () => 50 },
      onRestart: (name, code) => restarts.push([name, code]),
      onUnexpectedExit: (name) => gaveUp.push(name),
    });
    let readyChecks = 0;
    const managed = await supervisor.start({
      name: 'restartable',
      ...idle,
      ready: async () => {
        readyChecks += 1;
        return true;
      },
    });
    const firstPid = managed.child.pid as number;
    process.kill(firstPid, 'SIGKILL');
    for (let i = 0; i < 200 && (managed.child.pid === firstPid || readyChecks < 2); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const secondPid = managed.child.pid as number;
    assert.notEqual(secondPid, firstPid, 'a new process runs under the same name');
    assert.ok(alive(secondPid));
    assert.equal(readyChecks, 2, 'the restarted process was waited for until ready');
    assert.deepEqual(restarts, [['restartable', null]]);
    await supervisor.stopAll();
    assert.ok(await gone(secondPid));
    assert.deepEqual(gaveUp, []);
  });

  test('when a process keeps crashing within the window, then it is given up on once and the others stay up', async () => {
    const restarts: string[] = [];
    const gaveUp: Array<[string, number | null]> = [];
    const supervisor = new Supervisor(logDir, {
      restart: { maxCrashes: 2, windowMs: 60_000, backoffMs: () => 20 },
      onRestart: (name) => restarts.push(name),
      onUnexpectedExit: (name, code) => gaveUp.push([name, code]),
    });
    const steady = await supervisor.start({ name: 'steady', ...idle, ready: async () => true });
    // Ready at once, then dies 100 ms later, every time it is started.
    await supervisor.start({
      name: 'crash-loop',
      command: process.execPath,
      args: ['-e', 'setTimeout(() => process.exit(7), 100)'],
      ready: async () => true,
    });
    for (let i = 0; i < 200 && gaveUp.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.deepEqual(restarts, ['crash-loop', 'crash-loop'], 'restarted up to maxCrashes times');
    assert.deepEqual(gaveUp, [['crash-loop', 7]]);
    assert.ok(alive(steady.child.pid as number), 'the rest of the stack stays up');
    await supervisor.stopAll();
  });

  test('when a test kills a process itself, then it is not restarted', async () => {
    const restarts: string[] = [];
    const supervisor = new Supervisor(logDir, { restart: { maxCrashes: 3, windowMs: 60_000, backoffMs: () => 10 }, onRestart: (name) => restarts.push(name) });
    const doomed = await supervisor.start({ name: 'doomed', ...idle, ready: async () => true });
    const pid = doomed.child.pid as number;
    await doomed.kill();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(doomed.child.pid, pid);
    assert.ok(!alive(pid));
    assert.deepEqual(restarts, []);
    await supervisor.stopAll();
  });

  test('when stopAll is called twice, then the process is stopped once, and no start succeeds afterwards', async () => {
    const supervisor = new Supervisor(logDir);
    const idler = await supervisor.start({ name: 'idler', ...idle, ready: async () => true });
    await Promise.all([supervisor.stopAll(), supervisor.stopAll()]);
    assert.equal(idler.child.signalCode, 'SIGTERM');
    await assert.rejects(supervisor.start({ name: 'too-late', ...idle, ready: async () => true }), /not started/);
  });

  test('when stopAll comes while a process is still starting, then the process is stopped and start rejects', async () => {
    const supervisor = new Supervisor(logDir);
    let pid: number | undefined;
    const starting = supervisor.start({
      name: 'never-ready',
      ...idle,
      ready: async (started) => {
        pid = started.pid;
        return false;
      },
    });
    for (let i = 0; i < 100 && pid === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(pid);
    await supervisor.stopAll();
    await assert.rejects(starting, /stopped during start-up/);
    assert.ok(await gone(pid));
  });

  test('when the command does not exist, then start rejects instead of crashing the caller', async () => {
    const supervisor = new Supervisor(logDir);
    await assert.rejects(
      supervisor.start({ name: 'missing', command: join(logDir, 'no-such-binary'), args: [], ready: async () => true }),
      /missing exited during start-up:[\s\S]*could not start/,
    );
    await supervisor.stopAll();
  });
});

describe('a supervised process never outlives the process that started it', () => {
  // A parent that starts one idle child through the Supervisor, prints the child's pid, then exits or waits.
  const parentScript = (ending: 'exit' | 'wait') => `
    const { Supervisor } = require(${JSON.stringify(join(REPO_ROOT, 'local', 'stack', 'supervisor.ts'))});
    const supervisor = new Supervisor(${JSON.stringify(join(tmpdir(), 'slowlane-reaper-logs'))});
    supervisor
      .start({ name: 'orphan-candidate', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], ready: async () => true })
      .then((child) => {
        console.log(child.child.pid);
        if (${JSON.stringify(ending)} === 'exit') process.exit(2);
      });`;

  for (const [ending, how] of [
    ['exit', 'exits on an error without stopping it'],
    ['SIGTERM', 'dies of a SIGTERM that no code handles'],
    ['SIGINT', 'dies of a Ctrl-C that no code handles'],
  ] as const) {
    test(`when the parent ${how}, then the child is stopped too`, async () => {
      const parent = spawn(process.execPath, ['--import', 'tsx', '-e', parentScript(ending === 'exit' ? 'exit' : 'wait')], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const [line] = (await once(createInterface({ input: parent.stdout }), 'line')) as [string];
      const childPid = Number(line);
      assert.ok(childPid > 0, line);
      assert.ok(alive(childPid));
      if (ending !== 'exit') parent.kill(ending);
      const [code, signal] = (await once(parent, 'exit')) as [number | null, NodeJS.Signals | null];
      assert.deepEqual({ code, signal }, ending === 'exit' ? { code: 2, signal: null } : { code: null, signal: ending });
      assert.ok(await gone(childPid), `child ${childPid} outlived its parent`);
    });
  }
});
