import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EXTRACT_INSTRUCTION, EXTRACT_MAX_TOKENS, EXTRACT_SYSTEM, EXTRACT_TOOL } from '../../activities/invoice/prompts';
import { answerWithRepairs } from '../../activities/repair-loop';
import { ConstrainedAnswerInvalidError } from '../../common/errors';
import { validateExtraction } from '../../common/validation';
import { createAnthropicClient, createModelGateway } from '../../gateway/model-gateway';
import { DEFAULT_PRICES } from '../../lib/config/model-prices';
import { createLogger } from '../../lib/logger';
import { Secret } from '../../lib/secret';
import { startSimulator } from '../../local/simulator/server';
import { benchDocument } from '../quota/documents';
import { readBenchFlags } from '../bench-flags';

const USAGE = 'usage: npm run bench -- repair [--jobs 400] [--malformed-percent 20] [--repair-percent 90] [--seed 11]';
const MODEL = 'claude-sonnet-4-6';

interface SideFigures {
  jobs: number;
  /** Malformed-answer faults the simulator drew, on every call of the side (repairs included). */
  malformedFaults: number;
  firstAnswersInvalid: number;
  /** Repair calls made (each one billed). */
  repairCalls: number;
  repaired: number;
  /** Jobs whose extraction stays invalid: they go to a person with the raw output. */
  toReview: number;
  /** Constrained answers that still failed the schema: ConstrainedAnswerInvalidError, the step fails. */
  constrainedInvalid: number;
  calls: number;
  costUsd: number;
  cacheReadInputTokens: number;
}

/** A count per 1,000 jobs, to one decimal. */
const perThousand = (count: number, jobs: number) => Math.round((count / jobs) * 10_000) / 10;

/**
 * `npm run bench -- repair`: how many schema-invalid extractions the repair loop turns valid. One in-process
 * simulator (no latency, seeded malformed-output rate), the gateway and the extraction prompt, run twice over the
 * same documents in the same order: without repairs (MODEL_REPAIR_TRIES=0: an invalid answer goes to review) and
 * with one repair. The simulator is reset with the same seed before each side, so both see the same first answers.
 * The repair figure follows from the simulator's SIM_REPAIR_RATE: it checks the loop end to end (the errors reach
 * the model, a fixed answer validates), it does not measure a real model's willingness to fix its output. A third
 * side asks the same with the answer constrained to the schema (`output_config.format`, the model named in
 * MODEL_CONSTRAINED_OUTPUT): the simulator's malformed fault is drawn as often, and cannot break the answer.
 */
export async function runRepairBenchmark(argv: string[]): Promise<void> {
  const flags = readBenchFlags(argv, ['jobs', 'malformed-percent', 'repair-percent', 'seed'], USAGE);
  const jobs = flags.count('jobs', 400);
  const malformed = flags.count('malformed-percent', 20) / 100;
  const repairRate = flags.count('repair-percent', 90) / 100;
  const seed = flags.count('seed', 11);
  const simulator = await startSimulator({
    port: 0,
    latencyBaseMs: 0,
    latencyPerOutputTokenMs: 0,
    rateMalformed: malformed,
    repairRate,
    seed,
    // The extraction prompt's tools + system are under the provider's 1,024-token minimum; the document is not.
    cacheMinTokens: 1024,
  });
  const gatewayOf = (constrainedModels: string[]) =>
    createModelGateway({
      client: createAnthropicClient({
        apiKey: new Secret('bench-key'),
        baseURL: simulator.url,
        maxRetries: 0,
        requestTimeoutMs: 30_000,
      } as Parameters<typeof createAnthropicClient>[0]),
      prices: DEFAULT_PRICES,
      log: createLogger('bench-repair', 'warn'),
      constrainedModels,
    });
  console.log(`repair: ${jobs} extractions, ${malformed * 100} % malformed first answers, simulator repairs ${repairRate * 100} %`);

  async function side(repairTries: number, constrained: boolean): Promise<SideFigures> {
    await fetch(`${simulator.url}/_sim/reset`, { method: 'POST' });
    const gateway = gatewayOf(constrained ? [MODEL] : []);
    const figures: SideFigures = {
      jobs,
      malformedFaults: 0,
      firstAnswersInvalid: 0,
      repairCalls: 0,
      repaired: 0,
      toReview: 0,
      constrainedInvalid: 0,
      calls: 0,
      costUsd: 0,
      cacheReadInputTokens: 0,
    };
    for (let job = 0; job < jobs; job++) {
      const documentText = new TextDecoder().decode(benchDocument(`repair-${job}`));
      let firstValid = true;
      const result = await answerWithRepairs({
        validate: validateExtraction,
        repairTries,
        ask: async (repair, moreCallsFollow) => {
          const answer = await gateway.callTool({
            jobId: `bench/repair-${job}`,
            priority: 'bulk',
            model: MODEL,
            system: EXTRACT_SYSTEM,
            documentText,
            instruction: EXTRACT_INSTRUCTION,
            tool: EXTRACT_TOOL,
            maxTokens: EXTRACT_MAX_TOKENS,
            cacheDocument: moreCallsFollow,
            ...(repair ? { repair } : {}),
          });
          if (!repair) firstValid = validateExtraction(answer.toolInput).ok;
          return answer;
        },
      }).catch((error: unknown) => {
        if (!(error instanceof ConstrainedAnswerInvalidError)) throw error;
        return error;
      });
      if (result instanceof ConstrainedAnswerInvalidError) {
        figures.firstAnswersInvalid += 1;
        figures.constrainedInvalid += 1;
        const billed = result.details?.billedUsage as { calls: number; costUsd: number } | undefined;
        figures.calls += billed?.calls ?? 1;
        figures.costUsd += billed?.costUsd ?? 0;
        continue;
      }
      figures.repairCalls += result.repairs;
      if (!firstValid) figures.firstAnswersInvalid += 1;
      if (!firstValid && result.checked.ok) figures.repaired += 1;
      if (!result.checked.ok) figures.toReview += 1;
      figures.calls += result.usage.calls;
      figures.costUsd += result.usage.costUsd;
      figures.cacheReadInputTokens += result.usage.cacheReadInputTokens ?? 0;
    }
    const stats = (await (await fetch(`${simulator.url}/_sim/stats`)).json()) as { byFault: Record<string, number> };
    figures.malformedFaults = stats.byFault.malformed ?? 0;
    return figures;
  }

  try {
    const naive = await side(0, false);
    const slowlane = await side(1, false);
    const constrained = await side(1, true);
    const per1000 = (figures: SideFigures) => ({
      malformedFaultsDrawn: perThousand(figures.malformedFaults, jobs),
      schemaInvalidAnswers: perThousand(figures.firstAnswersInvalid, jobs),
      repairCalls: perThousand(figures.repairCalls, jobs),
      stillInvalid: perThousand(figures.toReview + figures.constrainedInvalid, jobs),
      calls: perThousand(figures.calls, jobs),
    });
    const report = {
      settings: { jobs, malformedRate: malformed, simulatorRepairRate: repairRate, seed, model: MODEL, repairTries: 1 },
      sides: { slowlane, naive, constrained },
      figures: {
        perThousandJobs: { constraintOff: per1000(slowlane), constraintOn: per1000(constrained) },
        constrainedCostRatio: slowlane.costUsd === 0 ? 0 : constrained.costUsd / slowlane.costUsd,
        repairedShareOfInvalid: slowlane.firstAnswersInvalid === 0 ? 0 : slowlane.repaired / slowlane.firstAnswersInvalid,
        reviewShare: { slowlane: slowlane.toReview / jobs, naive: naive.toReview / jobs },
        costRatio: naive.costUsd === 0 ? 0 : slowlane.costUsd / naive.costUsd,
        callsPerJob: { slowlane: slowlane.calls / jobs, naive: naive.calls / jobs },
      },
      measuredAt: new Date().toISOString(),
    };
    console.log(JSON.stringify(report.figures, null, 2));
    const dir = join(__dirname, '..', 'results');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'repair.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await simulator.close();
  }
}
