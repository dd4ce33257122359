import { EXTRACT_MAX_TOKENS } from '../activities/invoice/prompts';
import { DEFAULT_POOL, limitsOf } from '../gateway/budget/token-budget';
import type { CallProfileSnapshot } from '../gateway/call-profile';
import { type CapacityInputs, MODEL_CALLS_PER_JOB } from '../gateway/capacity-plan';
import { budgetSettingsOf } from '../gateway/gateway-from-config';
import type { Config } from '../lib/config';

/** classifyDocument's max_tokens (activities/invoice/classify-document.ts) and extraction's, averaged per call. */
const CLASSIFY_MAX_TOKENS = 256;
export const MEAN_MAX_TOKENS = (CLASSIFY_MAX_TOKENS + EXTRACT_MAX_TOKENS) / MODEL_CALLS_PER_JOB;
export const DEFAULT_CPU_MS_PER_JOB = 300;

export interface PlanOverrides {
  latencyMs?: number;
  inputTokensPerCall?: number;
  outputTokensPerCall?: number;
  reservedOutputTokensPerCall?: number;
  cpuMsPerJob?: number;
  coresPerWorker?: number;
}

/** What the plan is computed from: explicit overrides, else what the fleet observed, else the configuration. */
export function capacityInputs(
  config: Pick<Config, 'gateway'>,
  overrides: PlanOverrides = {},
  observed?: CallProfileSnapshot,
): CapacityInputs {
  const settings = budgetSettingsOf(config);
  const expected = config.gateway.expected;
  return {
    limits: limitsOf(DEFAULT_POOL, settings),
    interactiveShare: settings.interactiveShare,
    callsPerJob: MODEL_CALLS_PER_JOB,
    inputTokensPerCall: overrides.inputTokensPerCall ?? observed?.inputTokens ?? expected.inputTokensPerCall,
    outputTokensPerCall: overrides.outputTokensPerCall ?? observed?.outputTokens ?? expected.outputTokensPerCall,
    reservedOutputTokensPerCall:
      overrides.reservedOutputTokensPerCall ?? observed?.reservedOutputTokens ?? MEAN_MAX_TOKENS,
    latencyMs: overrides.latencyMs ?? observed?.latencyMs ?? expected.latencyMs,
    maxSlotsPerWorker: config.gateway.maxSlotsPerWorker,
    cpuMsPerJob: overrides.cpuMsPerJob ?? DEFAULT_CPU_MS_PER_JOB,
    coresPerWorker: overrides.coresPerWorker ?? 1,
  };
}
