import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { reapOnExit, signalChild } from './reaper';

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Resolves true once the process serves; polled until readyTimeoutMs. */
  ready: (started: { pid: number | undefined; output: () => string }) => Promise<boolean>;
  readyTimeoutMs?: number;
}

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  logFile: string;
  /** The last 64 KiB the process printed since it started. */
  output(): string;
  /** Sends SIGTERM, then SIGKILL after graceMs. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL at once: used by fault tests to simulate a crash. */
  kill(): Promise<void>;
}

/**
 * Starts the stack's processes in order, each with its output in its own log file, waits until each is
 * ready, and stops them in reverse order. If one dies unexpectedly after it was ready, `onUnexpectedExit` hears
 * about it; one that dies while starting makes `start` reject instead.
 */
export class Supervisor {
  private readonly running: ManagedProcess[] = [];
  private stopped: Promise<void> | undefined;

  constructor(
    private readonly logDir: string,
    private readonly onUnexpectedExit: (name: string, code: number | null, logTail: string) => void = () => undefined,
  ) {}

  async start(spec: ProcessSpec): Promise<ManagedProcess> {
    await mkdir(this.logDir, { recursive: true });
    // A start that loses the race with stopAll would leave a process nobody stops.
    if (this.stopped) throw new Error(`${spec.name} was not started: the stack is stopping`);
    const logFile = join(this.logDir, `${spec.name}.log`);
    const log = createWriteStream(logFile, { flags: 'a' });
    log.write(`\n--- ${new Date().toISOString()} starting ${spec.command} ${spec.args.join(' ')}\n`);
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so Ctrl-C in the terminal reaches us first and we stop children in order.
      detached: true,
    });
    reapOnExit(child, { group: true });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    let recent = '';
    const remember = (chunk: Buffer) => {
      recent = (recent + chunk.toString('utf8')).slice(-64 * 1024);
    };
    child.stdout?.on('data', remember);
    child.stderr?.on('data', remember);
    let exited = false;
    let ready = false;
    let stopRequested = false;
    const onExit = (code: number | null) => {
      exited = true;
      log.write(`--- exited with ${code}\n`);
      // Before it was ready, start() itself reports the exit (waitUntilReady).
      if (ready && !this.stopped && !stopRequested) {
        void tail(logFile).then((text) => this.onUnexpectedExit(spec.name, code, text));
      }
    };
    child.once('exit', onExit);
    child.once('error', (error) => {
      // A spawn that failed (no such binary) emits no 'exit'.
      if (child.pid !== undefined) return;
      log.write(`--- could not start: ${error.message}\n`);
      onExit(null);
    });
    // 'close' follows 'exit' once the output pipes are drained (or follows a failed spawn); only then may the log end.
    const finished = new Promise<void>((resolve) => child.once('close', () => log.end(resolve)));
    const managed: ManagedProcess = {
      name: spec.name,
      child,
      logFile,
      output: () => recent,
      stop(graceMs = 10_000) {
        stopRequested = true;
        if (!exited) {
          signalChild(child, 'SIGTERM', true);
          const timer = setTimeout(() => signalChild(child, 'SIGKILL', true), graceMs);
          child.once('exit', () => clearTimeout(timer));
        }
        return finished;
      },
      kill() {
        stopRequested = true;
        if (!exited) signalChild(child, 'SIGKILL', true);
        return finished;
      },
    };
    this.running.push(managed);
    // A spawn that failed has no pid from the start, before its 'error' event arrives.
    await this.waitUntilReady(spec, managed, () => exited || child.pid === undefined, finished);
    ready = true;
    return managed;
  }

  private async waitUntilReady(
    spec: ProcessSpec,
    managed: ManagedProcess,
    hasExited: () => boolean,
    finished: Promise<void>,
  ): Promise<void> {
    const deadline = Date.now() + (spec.readyTimeoutMs ?? 60_000);
    while (Date.now() < deadline) {
      if (this.stopped) throw new Error(`${spec.name} was stopped during start-up`);
      if (hasExited()) {
        // Its last words (the reason it died) are in the log once the log is closed.
        await finished;
        throw new Error(`${spec.name} exited during start-up:\n${await tail(managed.logFile)}`);
      }
      if (await spec.ready({ pid: managed.child.pid, output: managed.output }).catch(() => false)) return;
      await delay(200);
    }
    throw new Error(
      `${spec.name} was not ready within ${(spec.readyTimeoutMs ?? 60_000) / 1000}s:\n${await tail(managed.logFile)}`,
    );
  }

  /** Removes a process the caller stopped itself (fault tests), so stopAll does not wait for it. */
  forget(processToForget: ManagedProcess): void {
    const index = this.running.indexOf(processToForget);
    if (index >= 0) this.running.splice(index, 1);
  }

  /** Stops every process in reverse start order; later calls wait for the same stop. No start succeeds after it. */
  stopAll(): Promise<void> {
    this.stopped ??= (async () => {
      for (const managed of [...this.running].reverse()) await managed.stop();
      this.running.length = 0;
    })();
    return this.stopped;
  }
}

export async function tail(file: string, lines = 30): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
