import { setting, type SettingsArea } from '../settings/setting';
import { bool, duration, int, number, text, url } from '../settings/setting-types';
import { modelLimitsType } from './model-limits';

/** The AI gateway: the fleet's token budget and the capacity plan derived from it (docs/gateway.md). */
export const gatewayArea = {
  title: 'Model gateway',
  settings: {
    budgetEnabled: setting({
      env: 'GATEWAY_BUDGET',
      type: bool(),
      default: 'true',
      doc: '`off`: no token budget, calls go straight out (the naive mode)',
    }),
    // The `*` pool's defaults are the simulator's quota (local/simulator/options.ts); lower limits in the
    // provider's headers are adopted at run time.
    inputTokensPerMinute: setting({
      env: 'GATEWAY_ITPM',
      type: int({ min: 1, max: 1e9 }),
      default: '2000000',
      doc: "the provider's input tokens per minute for every model without its own pool; a lower limit in the provider's headers is adopted",
    }),
    outputTokensPerMinute: setting({
      env: 'GATEWAY_OTPM',
      type: int({ min: 1, max: 1e9 }),
      default: '400000',
      doc: "the provider's output tokens per minute for every model without its own pool; a lower limit in the provider's headers is adopted",
    }),
    requestsPerMinute: setting({
      env: 'GATEWAY_RPM',
      type: int({ min: 1, max: 1e7 }),
      default: '4000',
      doc: "the provider's requests per minute for every model without its own pool; a lower limit in the provider's headers is adopted",
    }),
    modelLimits: setting({
      env: 'GATEWAY_MODEL_LIMITS',
      type: modelLimitsType,
      default: '{}',
      doc: 'pools for models with their own quota; limits must be positive',
    }),
    interactiveShare: setting({
      env: 'GATEWAY_INTERACTIVE_SHARE',
      type: number({ min: 0, max: 0.9 }),
      default: '0.2',
      doc: 'share of every limit that only interactive jobs may use while they are making calls',
    }),
    interactiveIdleShare: setting({
      env: 'GATEWAY_INTERACTIVE_IDLE_SHARE',
      type: number({ min: 0, max: 0.9 }),
      default: '0.05',
      doc: 'the interactive reserve once no interactive call has asked for a while (at most GATEWAY_INTERACTIVE_SHARE); bulk may use the rest',
    }),
    interactiveDecayMs: setting({
      env: 'GATEWAY_INTERACTIVE_DECAY',
      type: duration(),
      default: '30s',
      doc: 'time constant in which the interactive reserve shrinks back to its idle share after the last interactive call',
    }),
    redisUrl: setting({
      env: 'REDIS_URL',
      type: url(),
      doc: 'one token budget for every worker process; without it each process keeps its own',
    }),
    redisKeyPrefix: setting({
      env: 'GATEWAY_REDIS_PREFIX',
      type: text(),
      default: 'slowlane:budget',
      doc: "prefix of the budget's Redis keys (one per provider key)",
    }),
    expectedLatencyMs: setting({
      env: 'GATEWAY_EXPECTED_LATENCY',
      type: duration(),
      default: '8s',
      doc: "a model call's latency until observed (slot sizing, capacity plan)",
    }),
    expectedInputTokens: setting({
      env: 'GATEWAY_EXPECTED_INPUT_TOKENS',
      type: int({ min: 1, max: 10_000_000 }),
      default: '3000',
      doc: 'input tokens of a typical call until observed',
    }),
    expectedOutputTokens: setting({
      env: 'GATEWAY_EXPECTED_OUTPUT_TOKENS',
      type: int({ min: 1, max: 1_000_000 }),
      default: '1000',
      doc: 'output tokens of a typical call until observed',
    }),
    maxSlotsPerWorker: setting({
      env: 'GATEWAY_MAX_SLOTS_PER_WORKER',
      type: int({ min: 1, max: 10_000 }),
      default: '100',
      doc: 'the most activity slots one worker process takes, whatever the plan says',
    }),
  },
} satisfies SettingsArea;
