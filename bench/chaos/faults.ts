import { setTimeout as sleep } from 'node:timers/promises';

/** The simulator's settings for a provider erring at `rate`, split evenly over 429 (sent with retry-after), 529 and 500. */
export function providerFaultEnv(rate: number, seed: number, latencyMs: number): Record<string, string> {
  const share = String(rate / 3);
  return {
    SIM_RATE_429: share,
    SIM_RATE_529: share,
    SIM_RATE_500: share,
    SIM_SEED: String(seed),
    SIM_LATENCY_BASE_MS: String(latencyMs),
  };
}

export interface ProviderStats {
  requests: number;
  byStatus: Record<string, number>;
  byTool: Record<string, { requests: number; ok: number }>;
}

export async function providerStats(simulatorUrl: string): Promise<ProviderStats> {
  return (await (await fetch(`${simulatorUrl}/_sim/stats`)).json()) as ProviderStats;
}

/** The ledger's faults, in turn: refused before the commit, committed then a 500, committed then the connection cut. */
const LEDGER_FAULTS = [
  { kind: 'unavailable' },
  { kind: 'commit_then_fail', failWith: 'http_500' },
  { kind: 'commit_then_fail', failWith: 'connection_reset' },
] as const;

interface LedgerStats {
  entries: number;
  created: number;
  replayed: number;
  conflicts: number;
  faultsInjected: number;
}

export interface LedgerFaultTally {
  posts: number;
  faults: number;
  byKind: Record<string, number>;
}

/**
 * The ledger stand-in arms one fault at a time for "the next post"; this keeps one armed whenever fewer than
 * `rate` of the posts so far have met one, so about that share of posts fail, whichever jobs they belong to.
 */
export function keepLedgerFaulty(ledgerUrl: string, rate: number): { stop(): Promise<LedgerFaultTally> } {
  let running = true;
  const armed: string[] = [];
  let stats: LedgerStats = { entries: 0, created: 0, replayed: 0, conflicts: 0, faultsInjected: 0 };
  // Posts refused before the commit are counted by no ledger counter but the fault's.
  const posts = () =>
    stats.created +
    stats.replayed +
    stats.conflicts +
    armed.slice(0, stats.faultsInjected).filter((kind) => kind === 'unavailable').length;
  const loop = (async () => {
    while (running) {
      try {
        stats = (await (await fetch(`${ledgerUrl}/_ledger/stats`)).json()) as LedgerStats;
        const pending = armed.length > stats.faultsInjected;
        if (!pending && stats.faultsInjected < rate * (posts() + 1)) {
          const fault = LEDGER_FAULTS[armed.length % LEDGER_FAULTS.length] as (typeof LEDGER_FAULTS)[number];
          const response = await fetch(`${ledgerUrl}/_ledger/faults`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ ...fault, times: 1 }),
          });
          if (response.ok) armed.push('failWith' in fault ? `${fault.kind}:${fault.failWith}` : fault.kind);
        }
      } catch {
        // The ledger restarting or busy: try again on the next tick.
      }
      await sleep(100);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await fetch(`${ledgerUrl}/_ledger/faults`, { method: 'DELETE' }).catch(() => undefined);
      const taken = armed.slice(0, stats.faultsInjected);
      const byKind: Record<string, number> = {};
      for (const kind of taken) byKind[kind] = (byKind[kind] ?? 0) + 1;
      return { posts: posts(), faults: taken.length, byKind };
    },
  };
}

export interface LedgerEntry {
  id: string;
  jobId: string;
  idempotencyKey: string;
}

export async function ledgerEntries(ledgerUrl: string): Promise<LedgerEntry[]> {
  return ((await (await fetch(`${ledgerUrl}/entries`)).json()) as { entries: LedgerEntry[] }).entries;
}
