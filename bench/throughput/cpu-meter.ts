import { readFileSync } from 'node:fs';
import type { Stack } from '../../local/stack/stack';

/** Kernel clock ticks per second (USER_HZ): 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

/** CPU ms (user + system, all threads) of each group of processes, read together. */
export type CpuReading = Record<CpuGroup, number>;

/**
 * Who spends the CPU: the product's processes (API and workers), the Temporal server's (one dev server, or the
 * cluster's services), and this benchmark process, which runs the bare ceiling's worker and client and both sides'
 * submitters and waits.
 */
export type CpuGroup = 'product' | 'server' | 'bench';

/** Reads the groups' CPU time now; a difference of two readings is what they spent in between. */
export function readCpu(stack: Stack): CpuReading {
  const reading: CpuReading = { product: 0, server: 0, bench: 0 };
  for (const managed of stack.processes.values()) {
    const group = groupOf(managed.name);
    const pid = managed.child.pid;
    if (group && pid !== undefined) reading[group] += processCpuMs(pid);
  }
  const self = process.cpuUsage();
  reading.bench = (self.user + self.system) / 1000;
  return reading;
}

export function cpuSpent(from: CpuReading, to: CpuReading): CpuReading {
  return { product: to.product - from.product, server: to.server - from.server, bench: to.bench - from.bench };
}

export function addCpu(total: CpuReading, more: CpuReading): void {
  for (const group of Object.keys(total) as CpuGroup[]) total[group] += more[group];
}

function groupOf(name: string): CpuGroup | undefined {
  if (name === 'api' || name.startsWith('worker')) return 'product';
  if (name.startsWith('temporal')) return 'server';
  return undefined;
}

/** utime + stime of a process (its threads included) from /proc; 0 for one that is gone. */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces and ends at the last ')': utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
