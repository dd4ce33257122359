import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import type { JobError } from '../../common/api-contract/job-parts';
import { JOB_WORKFLOW_TYPES } from '../../common/job-types/registry';
import { PRIORITIES } from '../../common/task-queues';
import { loadConfig } from '../../lib/config';
import { createObjectStore } from '../../lib/object-store';
import { startLocalRedis } from '../../local/stack/redis-server';
import { connectBenchClient, startBenchStack } from '../bench-stack';
import { type ChaosWorker, runChaos } from './chaos-monkey';
import { eraseInFlight } from './erasures';
import { keepLedgerFaulty, ledgerEntries, providerFaultEnv, providerStats } from './faults';
import { MODEL_TOOLS, mostInFlight, readJobHistory, type JobHistory } from './histories';
import { JOB_MIX, jobPlan } from './job-mix';
import { checkLedger, DEAD_WORKER_NOTICED_AFTER_MS, percentile, recoveries, rerunsOf } from './measure';
import { runNaive } from './naive';
import { isRedisDeadLetter, runRedisOutages } from './redis-outages';
import { printReport } from './report';
import { parseChaosArgs, seededRandom } from './settings';
import { checkSpend } from './spend-check';
import { API_KEY, keepApproving, SECRETS, submitAll, TENANT_ID } from './submit';

const RESULTS_DIR = join(__dirname, '..', 'results');
const TERMINAL = new Set(['posted', 'completed', 'rejected', 'review_expired', 'failed', 'cancelled']);

/**
 * `npm run bench -- chaos`: a few hundred jobs of every kind in the job mix in flight at once on a private local
 * stack, while worker processes are SIGKILLed at random moments, the Temporal server is killed and restarted on its
 * database, the Redis behind the workers' token budget and spend totals is killed and restarted (one outage longer
 * than a minute), the provider answers a tenth of calls with 429/529/500 and the ledger fails a tenth of posts. Then
 * the same jobs the synchronous way under the same faults. Loopback only; stops by itself.
 */
export async function runChaosBenchmark(argv: string[]): Promise<void> {
  const settings = parseChaosArgs(argv);
  const runId = randomUUID().slice(0, 8);
  const random = seededRandom(settings.seed);
  const startedAt = Date.now();
  const say = (line: string) =>
    console.log(`[chaos ${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)} s] ${line}`);
  const restarts: string[] = [];
  // The fleet's budget in Redis, as production runs it, so the chaos can take it away. Its append-only file keeps
  // the spend totals through each kill, so they can be compared with what the jobs recorded.
  const redisDir = await mkdtemp(join(tmpdir(), 'slowlane-bench-chaos-redis-'));
  const redis = await startLocalRedis({ dataDir: redisDir });
  const { stack, dataDir, stop } = await startBenchStack('chaos', {
    secrets: SECRETS,
    productEnv: { REDIS_URL: redis.url },
    simulatorEnv: providerFaultEnv(settings.providerFaultRate, settings.seed, settings.modelLatencyMs),
    // The default policy, as `npm start` runs it: the chaos stays within what it forgives.
    onRestart: (name, code, delayMs) => restarts.push(`${name} (exit ${code}) restarted after ${delayMs} ms`),
    onUnexpectedExit: (name, code) => say(`${name} exited (code ${code}) and was given up on`),
  });
  const { client, connection } = await connectBenchClient(stack);
  try {
    // Two worker processes per queue, as a deployment would run them: a kill leaves the queue served.
    const workers: ChaosWorker[] = PRIORITIES.flatMap((priority) => [
      { name: `worker-${priority}`, priority },
      { name: `worker-${priority}-2`, priority },
    ]);
    await Promise.all(
      workers
        .filter((worker) => !stack.processes.has(worker.name))
        .map((worker) => stack.startWorker(worker.name, { WORKER_PRIORITIES: worker.priority })),
    );
    say(
      `stack up in ${dataDir}; ${settings.jobs} jobs, ${settings.workerKills} worker kills, ${settings.temporalRestarts} server restarts, ` +
        `${settings.redisOutages.length} Redis outages (${settings.redisOutages.map((outage) => `${outage.forMs / 1000} s`).join(', ')})`,
    );
    const plan = jobPlan(settings.jobs);
    const ledgerFaults = keepLedgerFaulty(stack.urls.ledger, settings.ledgerFaultRate);
    let submitted: Awaited<ReturnType<typeof submitAll>> = [];
    const reviewer = keepApproving(stack.urls.api, () => submitted);
    // The chaos starts once a quarter of the jobs are in, so the first kills already meet running jobs.
    const submitting = submitAll(stack.urls.api, plan, runId, settings.concurrency, (jobs) => {
      submitted = jobs;
    });
    while (submitted.length < settings.jobs / 4) await sleep(500);
    say(`${submitted.length} jobs submitted; the chaos starts`);
    const chaosRun = runChaos(stack, workers, settings, random, say);
    const outagesRun = runRedisOutages(redis, settings.redisOutages, say);
    // Its own seed stream, so the kills fall at the same moments with or without erasures.
    const erasures = eraseInFlight({
      client,
      apiUrl: stack.urls.api,
      apiKey: API_KEY,
      tenantId: TENANT_ID,
      jobs: () => submitted,
      count: settings.erasures,
      gapMs: settings.erasureGapMs,
      random: seededRandom(settings.seed + 1),
      say,
    });
    submitted = await submitting;
    say(`all ${submitted.length} jobs submitted (202 each)`);
    const chaos = await chaosRun;
    const redisOutages = await outagesRun;
    await erasures.done();
    const chaosEndedAt = Date.now();
    // Every count below is of the jobs left: an erased job is meant to be unknown.
    const erased = erasures.erasedIds();
    const kept = submitted.filter((job) => !erased.has(job.jobId));
    say(`chaos over; waiting up to ${settings.settleLimitMs / 1000} s for every job to settle`);
    let statuses = await jobStatuses(client);
    // What is left of the budget after the settle wait goes to the histories and the naive side.
    const settleUntil = Math.min(chaosEndedAt + settings.settleLimitMs, startedAt + settings.budgetMs - 120_000);
    while (Date.now() < settleUntil) {
      const open = kept.filter((job) => !TERMINAL.has(statuses.get(job.jobId) ?? 'missing')).length;
      if (open === 0) break;
      await sleep(3_000);
      statuses = await jobStatuses(client).catch(() => statuses);
    }
    const settleMs = Date.now() - chaosEndedAt;
    const approved = await reviewer.stop();
    const ledgerTally = await ledgerFaults.stop();
    say(
      `settled ${kept.filter((job) => TERMINAL.has(statuses.get(job.jobId) ?? '')).length} of ${kept.length}; reading histories`,
    );

    const histories: JobHistory[] = [];
    const lost: string[] = [];
    for (const job of kept) {
      try {
        histories.push(await readJobHistory(client, job.jobId));
      } catch {
        lost.push(job.jobId);
      }
    }
    const entries = await ledgerEntries(stack.urls.ledger);
    const provider = await providerStats(stack.urls.simulator);
    const erasure = await erasures.check(createObjectStore(loadConfig(stack.productEnv)), kept);
    say(`erased in flight ${erasure.erased}: objects left ${erasure.objectsLeft.length}, executions left ${erasure.executionsLeft.length}, others' uploads gone ${erasure.othersInputsGone.length}`);
    const retries = histories.flatMap((history) => history.timedOutRetries);
    const kills = recoveries(chaos.kills, retries);
    const settled = kept.filter((job) => TERMINAL.has(statuses.get(job.jobId) ?? ''));
    const stuck = kept.filter((job) => !TERMINAL.has(statuses.get(job.jobId) ?? '') && !lost.includes(job.jobId));
    // Why each open job is where it is (a dead letter names its step and error), as a client would read it.
    const whyStuck = new Map<string, string>();
    const deadLetters: JobError[] = [];
    for (const job of stuck) {
      const view = (await fetch(`${stack.urls.api}/jobs/${encodeURIComponent(job.jobId)}`, {
        headers: { authorization: `Bearer ${API_KEY}` },
      })
        .then((response) => response.json())
        .catch(() => undefined)) as { step?: string; error?: JobError } | undefined;
      const error = view?.error;
      if (error && statuses.get(job.jobId) === 'dead_letter') deadLetters.push(error);
      if (error) whyStuck.set(job.jobId, `${error.step ?? view.step ?? '?'}: ${error.type} after ${error.attempts ?? '?'} attempts: ${error.message}`);
    }
    const billedModelCalls = Object.entries(provider.byTool)
      .filter(([tool]) => MODEL_TOOLS.has(tool))
      .reduce((sum, [, stats]) => sum + stats.ok, 0);
    const modelStepsCompleted = histories.reduce((sum, history) => sum + history.modelStepsCompleted, 0);
    const productConfig = loadConfig(stack.productEnv);
    const spend = await checkSpend({
      redisUrl: redis.url,
      keyPrefix: productConfig.spend.redisKeyPrefix,
      tenantId: TENANT_ID,
      apiUrl: stack.urls.api,
      apiKey: API_KEY,
      jobIds: kept.map((job) => job.jobId),
      simulatorUrl: stack.urls.simulator,
      prices: {
        models: productConfig.anthropic.prices,
        embeddingsPricePerMTok: productConfig.embeddings.pricePerMTok,
        speechPricePerMinute: productConfig.speech.pricePerMinute,
      },
    }).catch((error: unknown) => ({ error: String(error) }));

    const slowlaneFigures = () => ({
      submitted: submitted.length,
      erasure,
      settled: settled.length,
      mostInFlight: mostInFlight(histories),
      outcomes: countBy(kept.map((job) => statuses.get(job.jobId) ?? 'missing')),
      notAsExpected: kept
        .filter((job) => TERMINAL.has(statuses.get(job.jobId) ?? '') && statuses.get(job.jobId) !== job.kind.expected)
        .map((job) => `${job.jobId}: ${statuses.get(job.jobId)}`),
      lost,
      stuck: stuck.map((job) => `${job.jobId}: ${statuses.get(job.jobId) ?? 'unknown'} ${whyStuck.get(job.jobId) ?? ''}`.trim()),
      approvedInReview: approved,
      deadLetters: {
        total: deadLetters.length,
        byType: countBy(deadLetters.map((error) => error.type)),
        causedByRedis: deadLetters.filter(isRedisDeadLetter).length,
      },
      spend,
      // The ledger keeps an erased job's posted entry (a record of accounts): counted apart, not as an entry without a job.
      ledger: checkLedger(kept, statuses, entries.filter((entry) => !erased.has(entry.jobId))),
      ledgerEntriesOfErasedJobs: entries.filter((entry) => erased.has(entry.jobId)).length,
      finishedStepsRerun: rerunsOf(histories),
      stepsInterruptedByKills: retries.length,
      billedModelCallsNotUsed: billedModelCalls - modelStepsCompleted,
      userFacingErrors: kept.filter((job) => statuses.get(job.jobId) === 'failed').length,
      settleAfterChaosMs: settleMs,
      jobDurationP50Ms: percentile(
        histories.filter((h) => h.closedAt).map((h) => (h.closedAt as number) - h.startedAt),
        50,
      ),
      jobDurationP95Ms: percentile(
        histories.filter((h) => h.closedAt).map((h) => (h.closedAt as number) - h.startedAt),
        95,
      ),
    });
    // Written now and again after the naive side: a run cut short there still leaves the Slowlane figures.
    const path = join(RESULTS_DIR, 'chaos.json');
    await mkdir(RESULTS_DIR, { recursive: true });
    await writeFile(
      path,
      `${JSON.stringify({ benchmark: 'chaos', settings, slowlane: slowlaneFigures(), naive: null }, null, 2)}\n`,
    );
    say('the same jobs the synchronous way, under the same provider and ledger faults');
    const naiveLedgerFaults = keepLedgerFaulty(stack.urls.ledger, settings.ledgerFaultRate);
    const naive = await runNaive(
      stack.productEnv,
      plan,
      runId,
      settings.concurrency,
      startedAt + settings.budgetMs - 15_000,
    );
    const naiveLedgerTally = await naiveLedgerFaults.stop();

    const slowlane = slowlaneFigures();
    const faults = {
      workerKills: kills,
      serverRestarts: chaos.serverRestarts.map((restart) => ({ backAfterMs: restart.backAfterMs ?? null })),
      redisOutages: redisOutages.map((outage) => ({ downMs: outage.downMs })),
      supervisorRestarts: restarts.length,
      provider: { calls: provider.requests, byStatus: provider.byStatus },
      ledger: ledgerTally,
      deadWorkerNoticedAfterMs: DEAD_WORKER_NOTICED_AFTER_MS,
    };
    const report = {
      benchmark: 'chaos',
      command: `npm run bench -- chaos ${argv.join(' ')}`.trim(),
      startedAt: new Date(startedAt).toISOString(),
      finishedAt: new Date().toISOString(),
      durationS: Math.round((Date.now() - startedAt) / 1000),
      settings,
      jobMix: JOB_MIX.map(({ name, type, priority, weight, expected }) => ({ name, type, priority, weight, expected })),
      slowlane,
      faults,
      naive: { ...naive, ledgerFaults: naiveLedgerTally },
    };
    printReport(report);
    await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nwrote ${path}`);
  } catch (error) {
    const logs = await readFile(join(dataDir, 'logs', 'api.log'), 'utf8').catch(() => '');
    console.error(`logs in ${join(dataDir, 'logs')}; api.log ends:\n${logs.slice(-2_000)}`);
    throw error;
  } finally {
    await connection.close();
    await stop();
    await redis.stop();
    await rm(redisDir, { recursive: true, force: true });
  }
}

/** Every job's status as the server has it (the JobStatus search attribute), from visibility. */
async function jobStatuses(client: Client): Promise<Map<string, string>> {
  const statuses = new Map<string, string>();
  const query = `WorkflowType IN (${JOB_WORKFLOW_TYPES.map((type) => `'${type}'`).join(', ')})`;
  for await (const execution of client.workflow.list({ query })) {
    const status = execution.typedSearchAttributes.getAll().find((pair) => pair.key.name === 'JobStatus')?.value;
    statuses.set(execution.workflowId, typeof status === 'string' ? status : execution.status.name.toLowerCase());
  }
  return statuses;
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
