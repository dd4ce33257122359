import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { compact } from '../common/compact';
import { DEFAULT_POOL } from '../gateway/budget/token-budget';
import { readFleetProfile } from '../gateway/call-profile-store';
import { type CapacityPlan, planCapacity } from '../gateway/capacity-plan';
import { loadCapacityConfig } from '../lib/config';
import { parseDurationMs } from '../lib/duration';
import { capacityInputs, DEFAULT_CPU_MS_PER_JOB } from './capacity-inputs';

const USAGE = `npm run capacity -- [options]

Prints the fleet's plan from the provider limits in the config (GATEWAY_ITPM, GATEWAY_OTPM, GATEWAY_RPM,
GATEWAY_INTERACTIVE_SHARE) and what a model call costs and takes: observed by the workers (published to
REDIS_URL), else the configured expectation (GATEWAY_EXPECTED_*), each overridable here.

  --latency <duration>            model call latency, e.g. 8s
  --input-tokens <n>              billed input tokens per call
  --output-tokens <n>             billed output tokens per call
  --max-tokens <n>                max_tokens per call (held against output tokens per minute while a call runs)
  --cpu-ms-per-job <n>            worker CPU per job, mostly text extraction (default ${DEFAULT_CPU_MS_PER_JOB})
  --cores-per-worker <n>          cores one worker process gets (default 1)
  --json                          print the plan as JSON`;

async function observedProfile(redisUrl: string | undefined, prefix: string) {
  if (!redisUrl) return undefined;
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return await readFleetProfile(redis, prefix);
  } finally {
    redis.disconnect();
  }
}

function positive(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`--${name} must be a positive number, got ${value}`);
  return parsed;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      latency: { type: 'string' },
      'input-tokens': { type: 'string' },
      'output-tokens': { type: 'string' },
      'max-tokens': { type: 'string' },
      'cpu-ms-per-job': { type: 'string' },
      'cores-per-worker': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadCapacityConfig();
  const observed = await observedProfile(config.gateway.redisUrl, config.gateway.redisKeyPrefix).catch(() => undefined);
  const latency = values.latency === undefined ? undefined : parseDurationMs(values.latency);
  if (values.latency !== undefined && latency === undefined)
    throw new Error(`--latency ${values.latency} is not a duration`);
  const overrides = {
    latencyMs: latency,
    inputTokensPerCall: positive(values['input-tokens'], 'input-tokens'),
    outputTokensPerCall: positive(values['output-tokens'], 'output-tokens'),
    reservedOutputTokensPerCall: positive(values['max-tokens'], 'max-tokens'),
    cpuMsPerJob: positive(values['cpu-ms-per-job'], 'cpu-ms-per-job'),
    coresPerWorker: positive(values['cores-per-worker'], 'cores-per-worker'),
  };
  const inputs = capacityInputs(config, compact(overrides), observed);
  const plan = planCapacity(inputs);
  const source = observed ? `observed over ${observed.observedCalls} calls (REDIS_URL)` : 'configured expectation';
  if (values.json) {
    console.log(JSON.stringify({ inputs, source, plan }, null, 2));
    return;
  }
  console.log(describePlan(inputs, plan, source, config.worker.maxConcurrentActivities));
}

function describePlan(
  inputs: Parameters<typeof planCapacity>[0],
  plan: CapacityPlan,
  source: string,
  override: number | undefined,
): string {
  const n = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits });
  return `Slowlane capacity plan (pool "${DEFAULT_POOL}")

Provider limits     ${n(inputs.limits.inputTokensPerMinute)} input tok/min, ${n(inputs.limits.outputTokensPerMinute)} output tok/min, ${n(inputs.limits.requestsPerMinute)} req/min
A model call        ${n(inputs.inputTokensPerCall)} input + ${n(inputs.outputTokensPerCall)} output tokens (max_tokens ${n(inputs.reservedOutputTokensPerCall)}), ${n(inputs.latencyMs)} ms — ${source}
A job               ${inputs.callsPerJob} calls = ${n(plan.tokensPerJob.input)} input + ${n(plan.tokensPerJob.output)} output tokens

Jobs/min ceiling    ${n(plan.ceilingJobsPerMinute, 1)} for the whole fleet (bound by ${plan.bindingLimit}); more workers cannot raise it
Interactive share   ${n(inputs.interactiveShare * 100)} % reserved = at least ${n(plan.interactiveReservedJobsPerMinute, 1)} interactive jobs/min whatever bulk does
Model calls         ${n(plan.modelCallsPerSecond, 2)}/s at the ceiling × ${n(inputs.latencyMs / 1000, 2)} s each = ${n(plan.modelCallsInFlight, 1)} in flight (Little's law)
Slots per worker    ${n(plan.slotsPerWorker)}${override !== undefined ? ` (WORKER_MAX_CONCURRENT_ACTIVITIES=${override} overrides it)` : ''} (capped at GATEWAY_MAX_SLOTS_PER_WORKER=${inputs.maxSlotsPerWorker})
CPU at the ceiling  ${n(plan.coresAtCeiling, 2)} core(s) (${n(inputs.cpuMsPerJob)} ms per job)
Workers worth running per queue: ${plan.workersWorthRunning} (KEDA maxReplicaCount); beyond that they only wait on the budget`;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
