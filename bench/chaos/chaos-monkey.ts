import { setTimeout as sleep } from 'node:timers/promises';
import type { Priority } from '../../common/task-queues';
import type { Stack } from '../../local/stack/stack';
import { DEFAULT_RESTART_POLICY } from '../../local/stack/supervisor';
import { temporalReady, workerIsPolling } from '../../local/stack/temporal-setup';
import type { ChaosSettings } from './settings';

/** A worker process of the stack and the queue it serves. */
export interface ChaosWorker {
  name: string;
  priority: Priority;
}

export interface WorkerKill {
  worker: string;
  priority: Priority;
  pid: number;
  at: number;
  /** From the SIGKILL until the restarted process polls the server again. */
  backAfterMs?: number;
}

export interface ServerRestart {
  at: number;
  /** From the SIGKILL until the restarted server answers for its namespace. */
  backAfterMs?: number;
}

export interface ChaosLog {
  kills: WorkerKill[];
  serverRestarts: ServerRestart[];
}

async function waitFor(check: () => Promise<boolean>, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await sleep(100);
  }
  return false;
}

/**
 * SIGKILLs worker processes at random moments (the stack's supervisor restarts them) and, spread among the kills,
 * the Temporal dev server (restarted on its SQLite file). A worker is killed only while it polls, and no worker more
 * often than the supervisor's restart policy forgives: past that it would give up on it, which is another test.
 */
export async function runChaos(
  stack: Stack,
  workers: ChaosWorker[],
  settings: ChaosSettings,
  random: () => number,
  say: (line: string) => void,
): Promise<ChaosLog> {
  const log: ChaosLog = { kills: [], serverRestarts: [] };
  const watchers: Array<Promise<void>> = [];
  const returning = new Map<string, Promise<void>>();
  const restartAt = new Set(
    Array.from({ length: settings.temporalRestarts }, (_, i) =>
      Math.round(((i + 1) * settings.workerKills) / (settings.temporalRestarts + 1)),
    ),
  );
  const recentKills = (worker: string, now: number) =>
    log.kills.filter((kill) => kill.worker === worker && kill.at > now - DEFAULT_RESTART_POLICY.windowMs).length;

  for (let n = 0; n < settings.workerKills; n++) {
    const [minGap, maxGap] = settings.killGapMs;
    await sleep(minGap + random() * (maxGap - minGap));
    if (restartAt.has(n)) await restartServer(stack, log, say);

    // A kill lands on a worker that works: one still coming back from its last kill is not picked, and none is
    // killed more often than the restart policy forgives.
    let up = workers.filter(
      (worker) =>
        !returning.has(worker.name) && recentKills(worker.name, Date.now()) < DEFAULT_RESTART_POLICY.maxCrashes - 1,
    );
    while (up.length === 0) {
      await Promise.race([...returning.values(), sleep(1_000)]);
      up = workers.filter(
        (worker) =>
          !returning.has(worker.name) && recentKills(worker.name, Date.now()) < DEFAULT_RESTART_POLICY.maxCrashes - 1,
      );
    }
    const target = up[Math.floor(random() * up.length)] as ChaosWorker;
    const managed = stack.processes.get(target.name);
    const pid = managed?.child.pid;
    if (!managed || pid === undefined) throw new Error(`no ${target.name} process to kill`);
    const kill: WorkerKill = { worker: target.name, priority: target.priority, pid, at: Date.now() };
    process.kill(pid, 'SIGKILL');
    log.kills.push(kill);
    say(`kill ${log.kills.length}/${settings.workerKills}: SIGKILL ${kill.worker} (pid ${pid})`);
    const watcher = (async () => {
      const polling = await waitFor(async () => {
        const current = managed.child.pid;
        return (
          current !== undefined &&
          current !== pid &&
          (await workerIsPolling(stack.urls.temporal, stack.namespace, current))
        );
      }, 180_000);
      if (polling) kill.backAfterMs = Date.now() - kill.at;
      returning.delete(target.name);
    })();
    returning.set(target.name, watcher);
    watchers.push(watcher);
  }
  await Promise.all(watchers);
  return log;
}

async function restartServer(stack: Stack, log: ChaosLog, say: (line: string) => void): Promise<void> {
  const server = stack.processes.get('temporal');
  const pid = server?.child.pid;
  if (!server || pid === undefined) throw new Error('no temporal process to restart');
  const restart: ServerRestart = { at: Date.now() };
  process.kill(pid, 'SIGKILL');
  log.serverRestarts.push(restart);
  say(`SIGKILL the Temporal dev server (pid ${pid}); the supervisor restarts it on its database file`);
  const up = await waitFor(
    async () => server.child.pid !== pid && (await temporalReady(stack.urls.temporal, stack.namespace)),
    180_000,
  );
  if (up) restart.backAfterMs = Date.now() - restart.at;
  say(
    up
      ? `Temporal answers again after ${((restart.backAfterMs ?? 0) / 1000).toFixed(1)} s`
      : 'Temporal did not come back within 180 s',
  );
}
