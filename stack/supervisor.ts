import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

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
 * ready, and stops them in reverse order. If one dies unexpectedly, `onUnexpectedExit` hears about it.
 */
export class Supervisor {
  private readonly running: ManagedProcess[] = [];
  private stopping = false;

  constructor(
    private readonly logDir: string,
    private readonly onUnexpectedExit: (name: string, code: number | null, logTail: string) => void = () => undefined,
  ) {}

  async start(spec: ProcessSpec): Promise<ManagedProcess> {
    await mkdir(this.logDir, { recursive: true });
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
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    let recent = '';
    const remember = (chunk: Buffer) => {
      recent = (recent + chunk.toString('utf8')).slice(-64 * 1024);
    };
    child.stdout?.on('data', remember);
    child.stderr?.on('data', remember);
    let exited = false;
    const exitPromise = new Promise<void>((resolve) => {
      child.on('exit', (code) => {
        exited = true;
        log.write(`--- exited with ${code}\n`);
        if (!this.stopping && !managed.stopRequested) {
          void tail(logFile).then((text) => this.onUnexpectedExit(spec.name, code, text));
        }
        resolve();
      });
    });
    const managed: ManagedProcess & { stopRequested: boolean } = {
      name: spec.name,
      child,
      logFile,
      output: () => recent,
      stopRequested: false,
      async stop(graceMs = 10_000) {
        managed.stopRequested = true;
        if (exited) return closeLog(log);
        signal(child, 'SIGTERM');
        const timer = setTimeout(() => signal(child, 'SIGKILL'), graceMs);
        await exitPromise;
        clearTimeout(timer);
        await closeLog(log);
      },
      async kill() {
        managed.stopRequested = true;
        if (!exited) signal(child, 'SIGKILL');
        await exitPromise;
      },
    };
    this.running.push(managed);
    await this.waitUntilReady(spec, () => exited, managed);
    return managed;
  }

  private async waitUntilReady(spec: ProcessSpec, hasExited: () => boolean, managed: ManagedProcess): Promise<void> {
    const deadline = Date.now() + (spec.readyTimeoutMs ?? 60_000);
    while (Date.now() < deadline) {
      if (hasExited()) throw new Error(`${spec.name} exited during start-up:\n${await tail(managed.logFile)}`);
      if (await spec.ready({ pid: managed.child.pid, output: managed.output }).catch(() => false)) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
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

  async stopAll(): Promise<void> {
    this.stopping = true;
    for (const managed of [...this.running].reverse()) await managed.stop();
    this.running.length = 0;
  }
}

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    // Negative pid: the whole group, so a child's own children (tsx → node) stop too.
    process.kill(-child.pid, name);
  } catch {
    try {
      child.kill(name);
    } catch {
      // already gone
    }
  }
}

function closeLog(log: WriteStream): Promise<void> {
  return new Promise((resolve) => log.end(resolve));
}

export async function tail(file: string, lines = 30): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
