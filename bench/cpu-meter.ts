import { readdirSync, readFileSync } from 'node:fs';
import type { Stack } from '../local/stack/stack';

/** Kernel clock ticks per second (USER_HZ): 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

/** CPU ms (user + system, all threads) of each group of processes, read together. */
export type CpuReading = Record<CpuGroup, number>;

/**
 * Who spends the CPU: the product's processes (API and workers), the Temporal server's (one dev server, or the
 * cluster's services and their PostgreSQL), the local stand-ins for the services a deployment calls (the S3 server,
 * the model provider simulator, the ledger), and this benchmark process, which runs the bare ceiling's worker and
 * client and both sides' submitters and waits. The stand-ins share this machine's cores with the product's side
 * only; in production they run elsewhere.
 */
export type CpuGroup = 'product' | 'server' | 'standIns' | 'bench';

const CPU_GROUPS: readonly CpuGroup[] = ['product', 'server', 'standIns', 'bench'];

/** A reading with each group's value computed from the group. */
export function cpuByGroup(value: (group: CpuGroup) => number): CpuReading {
  return Object.fromEntries(CPU_GROUPS.map((group) => [group, value(group)])) as CpuReading;
}

export function noCpu(): CpuReading {
  return cpuByGroup(() => 0);
}

/** Reads the groups' CPU time now; a difference of two readings is what they spent in between. */
export function readCpu(stack: Stack): CpuReading {
  const reading = noCpu();
  const table = processTable();
  for (const managed of stack.processes.values()) {
    const group = groupOf(managed.name);
    const pid = managed.child.pid;
    if (group && pid !== undefined) reading[group] += treeCpuMs(table, pid);
  }
  const self = process.cpuUsage();
  reading.bench = (self.user + self.system) / 1000;
  return reading;
}

export function cpuSpent(from: CpuReading, to: CpuReading): CpuReading {
  return cpuByGroup((group) => to[group] - from[group]);
}

export function addCpu(total: CpuReading, more: CpuReading): void {
  for (const group of CPU_GROUPS) total[group] += more[group];
}

const STAND_INS = new Set(['s3', 'simulator', 'ledger']);

function groupOf(name: string): CpuGroup | undefined {
  if (name === 'api' || name.startsWith('worker')) return 'product';
  if (name.startsWith('temporal') || name === 'postgres') return 'server';
  if (STAND_INS.has(name)) return 'standIns';
  return undefined;
}

interface ProcessTable {
  /** utime + stime of each process (its threads included), plus cutime + cstime: the children it has reaped. */
  cpuMs: Map<number, number>;
  children: Map<number, number[]>;
}

/** Every process's CPU and children, from /proc. */
function processTable(): ProcessTable {
  const table: ProcessTable = { cpuMs: new Map(), children: new Map() };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name, which may hold spaces and ends at the last ')': ppid is field 4, utime,
      // stime, cutime and cstime are 14 to 17.
      const fields = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .map(Number);
      const pid = Number(entry);
      const parent = fields[1] ?? 0;
      const ticks = (fields[11] ?? 0) + (fields[12] ?? 0) + (fields[13] ?? 0) + (fields[14] ?? 0);
      table.cpuMs.set(pid, (ticks * 1000) / TICKS_PER_SECOND);
      table.children.set(parent, [...(table.children.get(parent) ?? []), pid]);
    } catch {
      // Gone between the listing and the read.
    }
  }
  return table;
}

/**
 * CPU ms of a process and all its descendants: PostgreSQL does its work in one backend process per connection, and
 * a backend that exits is counted by its parent once reaped.
 */
function treeCpuMs(table: ProcessTable, root: number): number {
  let total = 0;
  const pending = [root];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    total += table.cpuMs.get(pid) ?? 0;
    pending.push(...(table.children.get(pid) ?? []));
  }
  return total;
}
