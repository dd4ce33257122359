import { createHash, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { readPages } from '../../activities/read-upload';
import { chunkPages } from '../../activities/document/chunk-pages';
import type { DocumentJobInput, DocumentJobState } from '../../common/job-types/document/document-job';
import { taskQueueFor } from '../../common/task-queues';
import { loadConfig } from '../../lib/config';
import { readBenchFlags } from '../bench-flags';
import { type JobRunSteps, readRunSteps } from '../job-history-steps';
import { historySizes, type WorkflowHistorySize } from '../workflow-histories';
import { demandBetween, type QuotaBound, quotaBound, readProviderCounters } from './quota-bound';
import { connectBenchClient, startBenchStack } from '../bench-stack';
import { generateLocalSecrets, LOCAL_MODE_ENV, localSecretsEnv } from '../../local/stack/local-secrets';
import { createObjectStore, objectKeys } from '../../lib/object-store';
import { LONG_DOCUMENT_FILE, LONG_DOCUMENT_PAGES, renderLongDocument } from '../../local/samples/long-document';
import type { documentWorkflow } from '../../workflows';
import { runScannedRequestBytes } from './scanned-request-bytes';
import { cpuByGroup, type CpuReading, cpuSpent, readCpu } from '../cpu-meter';

interface RunFigures {
  wallSeconds: number;
  pagesPerSecond: number;
  chunks: number;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  embeddingCalls: number;
  /** The shortest time the configured limits allow for what the run asked of the provider, and wall ÷ that. */
  quotaBound: QuotaBound;
  wallOverBound: number;
  /** Where the wall time went, from the parent's history: reading pages, the fan-out, and the rest. */
  phases: DocumentPhases;
  largestHistory: WorkflowHistorySize;
  workflows: number;
  /** CPU seconds each group of processes spent during the run (the stand-ins and the server share this machine). */
  cpuSeconds: CpuReading;
}

/** Pages of the document that warms the bench process and the worker before anything is measured. */
const WARM_UP_PAGES = 20;
/** Zero-latency rounds, each the ceiling then the job: one run's ratio moved from 21 % to 30 % between runs here. */
const ZERO_LATENCY_ROUNDS = 3;
const USAGE = `usage: npm run bench -- document [--pages ${LONG_DOCUMENT_PAGES}] [--rounds ${ZERO_LATENCY_ROUNDS}] [--parallel-groups N] [--parallel-chunks N] [--chunks-per-group N] [--bulk-workers 1] [--cpu-prof dir]`;

/**
 * `npm run bench -- document [--pages N]`: the generated 300-page PDF through the document job on the local stack,
 * started straight on Temporal (the bench needs no API). First with the simulator's default latency and budgets:
 * wall time, calls, tokens, cost and the largest history of any workflow; then with zero model latency: pages per
 * second, beside the bare ceiling of reading and chunking the same PDF in this process (no model, no Temporal), in
 * `--rounds` that alternate the two, the round with the median ratio reported. All after a warm-up
 * (WARM_UP_PAGES), as a running fleet is warm.
 */
export async function runDocumentBenchmark(argv: string[]): Promise<void> {
  if (argv.includes('--scans')) return runScannedRequestBytes(argv.filter((arg) => arg !== '--scans'));
  const flags = readBenchFlags(argv, ['pages', 'rounds', 'parallel-groups', 'parallel-chunks', 'chunks-per-group', 'bulk-workers', 'cpu-prof'], USAGE);
  const pages = flags.count('pages', LONG_DOCUMENT_PAGES);
  const rounds = flags.count('rounds', ZERO_LATENCY_ROUNDS, 1);
  // The stack runs one worker process per priority; a deployment adds processes to spread the fan-out's CPU.
  const bulkWorkers = flags.count('bulk-workers', 1, 1);
  // Local mode with throwaway credentials: only the document settings' defaults and the tool cache are read here.
  const config = loadConfig({ ...LOCAL_MODE_ENV, ...localSecretsEnv(generateLocalSecrets()) });
  // The job's own settings may be overridden for a run (its input carries them), to compare fan-outs.
  const fanOut = {
    parallelGroups: flags.count('parallel-groups', config.document.parallelGroups, 1),
    parallelChunks: flags.count('parallel-chunks', config.document.parallelChunks, 1),
    chunksPerGroup: flags.count('chunks-per-group', config.document.chunksPerGroup, 1),
  };
  console.log(`document: a ${pages}-page PDF, default simulator latency, then zero latency in ${rounds} rounds beside the ceiling`);
  const pdf = await renderLongDocument(pages);
  // Warm, as the worker will be: the first read of a PDF also compiles the reader.
  await readPages(await renderLongDocument(WARM_UP_PAGES), 'application/pdf', 10_000);
  const measureCeiling = async (): Promise<Ceiling> => {
    const started = performance.now();
    const chunks = chunkPages((await readPages(pdf, 'application/pdf', 10_000)).texts, config.document.chunkTokens).length;
    const seconds = (performance.now() - started) / 1000;
    return { seconds, pagesPerSecond: pages / seconds, chunks };
  };

  // `--cpu-prof <dir>`: node writes a profile per thread of the API and workers when they stop (see the throughput bench).
  const cpuProfileDir = flags.text('cpu-prof');
  if (cpuProfileDir) await mkdir(resolve(cpuProfileDir), { recursive: true });
  const bench = await startBenchStack('document', cpuProfileDir ? { productNodeArgs: ['--cpu-prof', `--cpu-prof-dir=${resolve(cpuProfileDir)}`] } : {});
  const { stack } = bench;
  const { client, connection } = await connectBenchClient(stack);
  try {
    for (let n = 2; n <= bulkWorkers; n++) await stack.startWorker(`worker-bulk-${n}`, { WORKER_PRIORITIES: 'bulk' });
    const productConfig = loadConfig(stack.productEnv);
    const store = createObjectStore(productConfig);
    const stored = async (bytes: Buffer) => {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const key = objectKeys.input('demo', sha256);
      await store.put(key, bytes, { contentType: 'application/pdf' });
      return { bytes, sha256, key };
    };
    const document = await stored(pdf);
    const run = async (label: string, { bytes, sha256, key } = document): Promise<RunFigures> => {
      const jobId = `document:demo:bench-${label}-${randomUUID().slice(0, 8)}`;
      const input: DocumentJobInput = {
        jobId,
        tenantId: 'demo',
        priority: 'bulk',
        document: { bucket: store.bucket, key, sha256, contentType: 'application/pdf', sizeBytes: bytes.length, fileName: LONG_DOCUMENT_FILE },
        reviewTimeoutMs: productConfig.jobs.reviewTimeoutMs,
        deadLetterTimeoutMs: productConfig.jobs.deadLetterTimeoutMs,
        submittedAt: new Date().toISOString(),
        settings: fanOut,
      };
      const before = await readProviderCounters(stack.urls.simulator);
      const cpuBefore = readCpu(stack);
      const started = performance.now();
      const handle = await client.workflow.start<typeof documentWorkflow>('documentWorkflow', {
        workflowId: jobId,
        taskQueue: taskQueueFor('bulk', productConfig.temporal.taskQueuePrefix),
        args: [input],
        workflowExecutionTimeout: '20 minutes',
      });
      const state = (await handle.result()) as DocumentJobState;
      const wallSeconds = (performance.now() - started) / 1000;
      const cpuMs = cpuSpent(cpuBefore, readCpu(stack));
      if (state.status !== 'completed') throw new Error(`the document job ended ${state.status}`);
      const demand = demandBetween(before, await readProviderCounters(stack.urls.simulator));
      const bound = quotaBound(demand, productConfig);
      const history = await handle.fetchHistory();
      const phases = phasesOf(readRunSteps(history));
      const histories = await historySizes(client, jobId, history);
      const largest = histories.reduce((a, b) => (b.events > a.events ? b : a));
      return {
        wallSeconds,
        pagesPerSecond: (state.result?.pages ?? 0) / wallSeconds,
        chunks: state.result?.chunks ?? 0,
        calls: state.usage.calls,
        inputTokens: state.usage.inputTokens,
        outputTokens: state.usage.outputTokens,
        costUsd: state.usage.costUsd,
        embeddingCalls: demand.embeddings.requests,
        quotaBound: bound,
        phases,
        wallOverBound: wallSeconds / bound.seconds,
        largestHistory: largest,
        workflows: histories.length,
        cpuSeconds: cpuByGroup((group) => cpuMs[group] / 1000),
      };
    };

    // A running fleet's workers are warm: a short document first, so neither measured run pays for compiling the
    // PDF reader and the activities' code (the first document on a fresh worker read 2 × slower).
    await run('warm-up', await stored(await renderLongDocument(WARM_UP_PAGES)));
    const defaultLatency = await run('default');
    await fetch(`${stack.urls.simulator}/_sim/config`, {
      method: 'PUT',
      body: JSON.stringify({ latencyBaseMs: 0, latencyPerOutputTokenMs: 0, embedLatencyBaseMs: 0, embedLatencyPerThousandTokensMs: 0 }),
    });
    // The ceiling runs in this process while the stack is idle, right before the job it is compared with.
    const zeroLatencyRounds: ZeroLatencyRound[] = [];
    for (let round = 1; round <= rounds; round++) {
      const ceilingOfRound = await measureCeiling();
      const figures = await run(`zero-${round}`);
      zeroLatencyRounds.push({ ceiling: ceilingOfRound, figures, ofCeiling: figures.pagesPerSecond / ceilingOfRound.pagesPerSecond });
    }
    const median = [...zeroLatencyRounds].sort((a, b) => a.ofCeiling - b.ofCeiling)[Math.floor((rounds - 1) / 2)] as ZeroLatencyRound;
    const { ceiling, figures: zeroLatency } = median;
    const ratios = {
      defaultLatencyWallOverQuotaBound: defaultLatency.wallOverBound,
      zeroLatencyPagesPerSecondOfCeiling: median.ofCeiling,
    };
    console.table({ defaultLatency: flat(defaultLatency), zeroLatency: flat(zeroLatency) });
    console.log(
      `quota bound at the configured limits: ${defaultLatency.quotaBound.seconds.toFixed(1)} s (${defaultLatency.quotaBound.limitedBy}); ` +
        `the job took ${defaultLatency.wallSeconds.toFixed(1)} s, ${defaultLatency.wallOverBound.toFixed(2)} × the bound`,
    );
    const percent = (ratio: number) => `${(ratio * 100).toFixed(0)} %`;
    console.log(
      `bare ceiling (read + chunk in process): ${ceiling.pagesPerSecond.toFixed(1)} pages/s; ` +
        `the job at zero latency: ${zeroLatency.pagesPerSecond.toFixed(1)} pages/s (${percent(median.ofCeiling)}, the median of ` +
        `${zeroLatencyRounds.map((round) => percent(round.ofCeiling)).join(', ')})`,
    );
    // The target is half the ceiling's speed: the run's CPU (the product's, the server's and the stand-ins'), spread
    // over every core at best, says how far its work is from fitting in that time on this machine.
    const cores = availableParallelism();
    const zeroCpu = zeroLatency.cpuSeconds;
    const stackCpuSeconds = zeroCpu.product + zeroCpu.server + zeroCpu.standIns;
    const cpu = { cores, zeroLatencySecondsOnEveryCore: stackCpuSeconds / cores, halfCeilingSeconds: 2 * ceiling.seconds };
    console.log(
      `CPU at zero latency: product ${zeroCpu.product.toFixed(2)} s, Temporal ${zeroCpu.server.toFixed(2)} s, stand-ins ${zeroCpu.standIns.toFixed(2)} s ` +
        `in ${zeroLatency.wallSeconds.toFixed(2)} s; on all ${cores} cores at once ${cpu.zeroLatencySecondsOnEveryCore.toFixed(2)} s, ` +
        `against ${cpu.halfCeilingSeconds.toFixed(2)} s for half the ceiling's speed`,
    );
    const report = {
      benchmark: 'document',
      command: `npm run bench -- document ${argv.join(' ')}`.trim(),
      finishedAt: new Date().toISOString(),
      settings: {
        pages,
        pdfBytes: pdf.length,
        ...productConfig.document,
        ...fanOut,
        bulkWorkers,
        limits: { gateway: productConfig.gateway.pools, embeddings: { tokensPerMinute: productConfig.embeddings.tokensPerMinute, requestsPerMinute: productConfig.embeddings.requestsPerMinute } },
      },
      defaultLatency,
      zeroLatency,
      ceiling,
      ratios,
      cpu,
      zeroLatencyRounds: zeroLatencyRounds.map((round) => ({
        ceilingPagesPerSecond: round.ceiling.pagesPerSecond,
        pagesPerSecond: round.figures.pagesPerSecond,
        ofCeiling: round.ofCeiling,
      })),
    };
    await mkdir(join(__dirname, '..', 'results'), { recursive: true });
    await writeFile(join(__dirname, '..', 'results', 'document.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await connection.close();
    await bench.stop();
  }
}

function flat(figures: RunFigures): Record<string, string | number> {
  const { largestHistory, quotaBound: bound, phases, cpuSeconds, ...rest } = figures;
  return {
    ...rest,
    ...phases,
    quotaBoundSeconds: bound.seconds,
    largestHistoryEvents: largestHistory.events,
    largestHistoryBytes: largestHistory.bytes,
    ...Object.fromEntries(Object.entries(cpuSeconds).map(([group, seconds]) => [`${group}CpuSeconds`, seconds])),
  };
}

interface Ceiling {
  seconds: number;
  pagesPerSecond: number;
  chunks: number;
}

interface ZeroLatencyRound {
  ceiling: Ceiling;
  figures: RunFigures;
  ofCeiling: number;
}

interface DocumentPhases {
  readSeconds: number;
  fanOutSeconds: number;
  /** Writing the chunks, the summary of the whole, and the workflow tasks around them. */
  restSeconds: number;
}

function phasesOf(run: JobRunSteps): DocumentPhases {
  const read = run.steps.find((step) => step.activity === 'readDocumentPages');
  const write = run.steps.find((step) => step.activity === 'writeDocumentChunks');
  if (run.startedAt === undefined || run.closedAt === undefined || !read?.closedAt || !write) throw new Error('the document job’s history is not a finished run');
  return {
    readSeconds: (read.closedAt - run.startedAt) / 1000,
    fanOutSeconds: (write.scheduledAt - read.closedAt) / 1000,
    restSeconds: (run.closedAt - write.scheduledAt) / 1000,
  };
}
