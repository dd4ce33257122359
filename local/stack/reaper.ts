import type { ChildProcess } from 'node:child_process';

/**
 * Children that must not outlive this process. Stopping them in order is their owner's job (Supervisor.stopAll,
 * LocalRedis.stop); this is the net under it for when the owner never gets there: the process exits early on an
 * error, or dies of a signal that no code here handles (a test file cancelled by the test runner, Ctrl-C in a
 * benchmark). Detached children lead their own process group, so the whole group is signalled.
 */
const live = new Map<ChildProcess, { group: boolean }>();
const FATAL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let installed = false;

export function reapOnExit(child: ChildProcess, options: { group: boolean }): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  install();
  live.set(child, options);
  child.once('exit', () => live.delete(child));
}

/** Sends `signal` to the child, or to its whole process group when it leads one; a child already gone is fine. */
export function signalChild(child: ChildProcess, signal: NodeJS.Signals, group: boolean): void {
  if (child.pid === undefined) return;
  try {
    if (group) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

function reapAll(): void {
  for (const [child, { group }] of live) signalChild(child, 'SIGTERM', group);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.once('exit', reapAll);
  for (const signal of FATAL_SIGNALS) {
    const onSignal = (): void => {
      // Another listener handles this signal (npm start and npm test stop their stack in order): leave it to them.
      if (process.listenerCount(signal) > 1) return;
      reapAll();
      // Die of the signal as if nobody had listened, so the exit status says what happened.
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
