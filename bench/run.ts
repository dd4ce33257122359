import { runBackfillBenchmark } from './backfill';
import { BenchFlagError } from './bench-flags';
import { runBatchBenchmark } from './batch';
import { runCallBenchmark } from './call';
import { runChaosBenchmark } from './chaos';
import { runClientsBenchmark } from './clients';
import { runDocumentBenchmark } from './document';
import { runCodecBenchmark } from './codec';
import { runFairnessBenchmark } from './fairness';
import { runLatencyBenchmark } from './latency';
import { runQuotaBenchmark } from './quota';
import { runRepairBenchmark } from './repair';
import { runThroughputBenchmark } from './throughput';
import { runWorkerStartBenchmark } from './worker-start';

/** `npm run bench -- <name> [options]`: benchmarks compare our way and the naive way in one run (docs/testing.md). */
const BENCHMARKS: Record<string, (argv: string[]) => Promise<void>> = {
  quota: runQuotaBenchmark,
  fairness: runFairnessBenchmark,
  clients: runClientsBenchmark,
  latency: runLatencyBenchmark,
  throughput: runThroughputBenchmark,
  'worker-start': runWorkerStartBenchmark,
  document: runDocumentBenchmark,
  chaos: runChaosBenchmark,
  repair: runRepairBenchmark,
  codec: runCodecBenchmark,
  batch: runBatchBenchmark,
  backfill: runBackfillBenchmark,
  call: runCallBenchmark,
};

async function main(): Promise<void> {
  const [name, ...argv] = process.argv.slice(2);
  const benchmark = name ? BENCHMARKS[name] : undefined;
  if (!benchmark) throw new BenchFlagError(`usage: npm run bench -- <${Object.keys(BENCHMARKS).join('|')}> [options]`);
  await benchmark(argv);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    // A flag error is the user's to fix: its message and the usage, without a stack.
    if (error instanceof BenchFlagError) console.error(error.message);
    else console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
