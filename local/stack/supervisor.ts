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
  /** The process running now: a restart replaces it. */
  readonly child: ChildProcess;
  logFile: string;
  /** The last 64 KiB the process printed since it (last) started. */
  output(): string;
  /** Sends SIGTERM, then SIGKILL after graceMs; no restart follows. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL at once, no restart: used by fault tests to simulate a crash they handle themselves. */
  kill(): Promise<void>;
}

/**
 * What happens when a ready process dies unasked. A crashed worker, server or stand-in is started again after a
 * growing pause, so one out-of-memory worker does not take the API and everything else down with it; a process
 * that keeps crashing is given up on (onUnexpectedExit) instead of being restarted forever.
 */
export interface RestartPolicy {
  /** Give up once a process has crashed this many times within `windowMs`. */
  maxCrashes: number;
  windowMs: number;
  /** Pause before the nth restart in the window (n = 1, 2, …). */
  backoffMs(n: number): number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  maxCrashes: 5,
  windowMs: 60_000,
  backoffMs: (n) => Math.min(500 * 2 ** (n - 1), 8_000),
};

export interface SupervisorOptions {
  /** A ready process died and will not be restarted (no policy, or it crashed too often). */
  onUnexpectedExit?: (name: string, code: number | null, logTail: string) => void;
  /** Without a policy a crash is only reported. */
  restart?: RestartPolicy;
  /** A crashed process is being started again. */
  onRestart?: (name: string, code: number | null, delayMs: number, crashesInWindow: number) => void;
}

/**
 * Starts the stack's processes in order, each with its output in its own log file, waits until each is
 * ready, and stops them in reverse order. If one dies unexpectedly after it was ready, it is restarted by the
 * restart policy, or `onUnexpectedExit` hears about it; one that dies while starting makes `start` reject instead.
 */
export class Supervisor {
  private readonly running: ManagedProcess[] = [];
  private stopped: Promise<void> | undefined;
  private readonly options: SupervisorOptions;

  constructor(
    private readonly logDir: string,
    options: SupervisorOptions | SupervisorOptions['onUnexpectedExit'] = {},
  ) {
    this.options = typeof options === 'function' ? { onUnexpectedExit: options } : options;
  }

  async start(spec: ProcessSpec): Promise<ManagedProcess> {
    await mkdir(this.logDir, { recursive: true });
    // A start that loses the race with stopAll would leave a process nobody stops.
    if (this.stopped) throw new Error(`${spec.name} was not started: the stack is stopping`);
    const logFile = join(this.logDir, `${spec.name}.log`);
    let run = this.spawn(spec, logFile);
    let stopRequested = false;
    let restartTimer: NodeJS.Timeout | undefined;
    const crashes: number[] = [];
    const managed: ManagedProcess = {
      name: spec.name,
      get child() {
        return run.child;
      },
      logFile,
      output: () => run.output(),
      stop(graceMs = 10_000) {
        stopRequested = true;
        clearTimeout(restartTimer);
        if (!run.exited()) {
          signalChild(run.child, 'SIGTERM', true);
          const timer = setTimeout(() => signalChild(run.child, 'SIGKILL', true), graceMs);
          run.child.once('exit', () => clearTimeout(timer));
        }
        return run.finished;
      },
      kill() {
        stopRequested = true;
        clearTimeout(restartTimer);
        if (!run.exited()) signalChild(run.child, 'SIGKILL', true);
        return run.finished;
      },
    };
    const unasked = () => !this.stopped && !stopRequested;
    const watch = () => {
      run.child.once('exit', (code) => {
        if (!unasked()) return;
        const now = Date.now();
        crashes.push(now);
        while (crashes.length > 0 && (crashes[0] as number) < now - (this.options.restart?.windowMs ?? 0)) crashes.shift();
        const policy = this.options.restart;
        if (!policy || crashes.length > policy.maxCrashes) {
          void run.finished.then(() => tail(logFile)).then((text) => this.options.onUnexpectedExit?.(spec.name, code, text));
          return;
        }
        const delayMs = policy.backoffMs(crashes.length);
        this.options.onRestart?.(spec.name, code, delayMs, crashes.length);
        restartTimer = setTimeout(() => {
          if (!unasked()) return;
          run = this.spawn(spec, logFile);
          watch();
          // A restart that never gets ready is killed, and its exit counts as the next crash.
          this.waitUntilReady(spec, run).catch(() => {
            if (unasked()) signalChild(run.child, 'SIGKILL', true);
          });
        }, delayMs);
      });
    };
    this.running.push(managed);
    await this.waitUntilReady(spec, run);
    // Only a process that was ready once is restarted: one that cannot start at all fails `start` instead.
    if (run.exited()) throw new Error(`${spec.name} exited during start-up:\n${await tail(logFile)}`);
    watch();
    return managed;
  }

  /** One run of the process: its output appended to the log file, its last words kept in memory. */
  private spawn(spec: ProcessSpec, logFile: string): ProcessRun {
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
    child.once('exit', (code) => {
      exited = true;
      log.write(`--- exited with ${code}\n`);
    });
    child.once('error', (error) => {
      // A spawn that failed (no such binary) emits no 'exit'.
      if (child.pid !== undefined) return;
      exited = true;
      log.write(`--- could not start: ${error.message}\n`);
    });
    // 'close' follows 'exit' once the output pipes are drained (or follows a failed spawn); only then may the log end.
    const finished = new Promise<void>((resolve) => child.once('close', () => log.end(resolve)));
    // A spawn that failed has no pid from the start, before its 'error' event arrives.
    return { child, finished, output: () => recent, exited: () => exited || child.pid === undefined };
  }

  private async waitUntilReady(spec: ProcessSpec, run: ProcessRun): Promise<void> {
    const deadline = Date.now() + (spec.readyTimeoutMs ?? 60_000);
    while (Date.now() < deadline) {
      if (this.stopped) throw new Error(`${spec.name} was stopped during start-up`);
      if (run.exited()) {
        // Its last words (the reason it died) are in the log once the log is closed.
        await run.finished;
        throw new Error(`${spec.name} exited during start-up:\n${await tail(join(this.logDir, `${spec.name}.log`))}`);
      }
      if (await spec.ready({ pid: run.child.pid, output: run.output }).catch(() => false)) return;
      await delay(200);
    }
    throw new Error(
      `${spec.name} was not ready within ${(spec.readyTimeoutMs ?? 60_000) / 1000}s:\n${await tail(join(this.logDir, `${spec.name}.log`))}`,
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

interface ProcessRun {
  child: ChildProcess;
  /** Resolves once the process has exited and its log is flushed. */
  finished: Promise<void>;
  output(): string;
  exited(): boolean;
}

export async function tail(file: string, lines = 30): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
