import { Redis } from 'ioredis';
import type { Priority } from '../common/task-queues';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import { type ConcurrencyLimit, InProcessConcurrencyLimit } from './budget/concurrency-limit';
import { InProcessBudget } from './budget/local-budget';
import { RedisConcurrencyLimit } from './budget/redis-concurrency-limit';
import { RedisBudget } from './budget/redis-budget';
import { type BudgetSettings, DEFAULT_POOL, limitsOf, type TokenBudget } from './budget/token-budget';
import { CallProfile } from './call-profile';
import { createEmbeddingsGateway, type WiredEmbeddingsGateway } from './embeddings/embeddings-gateway';
import { publishCallProfile } from './call-profile-store';
import { MODEL_CALLS_PER_JOB, planCapacity } from './capacity-plan';
import { type AnthropicGateway, createAnthropicClient, createModelGateway } from './model-gateway';
import { PacedActivitySlots, type SlotHoldTimes } from './paced-activity-slots';
import { createAssemblyAiSpeechGateway, type WiredAsyncSpeechGateway } from './speech/assemblyai-speech-gateway';
import { createSpeechGateway, type WiredSpeechGateway } from './speech/speech-gateway';

/** The activities that call the model (activities/index.ts); every other activity leaves the budget alone. */
export const MODEL_ACTIVITY_TYPES: ReadonlySet<string> = new Set(['classifyDocument', 'extractInvoiceFields']);

export interface WiredGateway {
  gateway: AnthropicGateway;
  /** The embeddings provider, with a budget of its own: its tokens never count against the Messages API's. */
  embeddings: WiredEmbeddingsGateway;
  /** The speech-to-text provider, budgeted in audio seconds per minute and requests in flight, apart from both. */
  speech: WiredSpeechGateway;
  /** The same provider in AssemblyAI's asynchronous shape (SPEECH_PROVIDER=assemblyai): one budget and concurrency with `speech`. */
  speechAsync: WiredAsyncSpeechGateway;
  budget?: TokenBudget;
  profile: CallProfile;
  /**
   * The activity slots of one queue's worker: paced by the budget and sized by the capacity plan, or a fixed
   * count (WORKER_MAX_CONCURRENT_ACTIVITIES, or the budget switched off).
   */
  activitySlots(priority: Priority): PacedActivitySlots | { type: 'fixed-size'; numSlots: number };
  close(): Promise<void>;
}

/** Fixed slots when the budget is off and nothing overrides them: the project's old default. */
const UNPACED_SLOTS = 20;

export function budgetSettingsOf(config: Pick<Config, 'gateway'>): BudgetSettings {
  const { pools, interactiveShare, interactiveIdleShare, interactiveDecayMs } = config.gateway;
  return { pools, interactiveShare, interactiveIdleShare, interactiveDecayMs };
}

/**
 * The embeddings budget: one pool named after the model. Embeddings bill input tokens only, so the output
 * dimension is never drawn on; it is set to the token limit because every limit must be positive.
 */
export function embeddingsBudgetSettingsOf(config: Pick<Config, 'gateway' | 'embeddings'>): BudgetSettings {
  const limits = {
    inputTokensPerMinute: config.embeddings.tokensPerMinute,
    outputTokensPerMinute: config.embeddings.tokensPerMinute,
    requestsPerMinute: config.embeddings.requestsPerMinute,
  };
  const { interactiveShare, interactiveIdleShare, interactiveDecayMs } = config.gateway;
  return {
    pools: { [config.embeddings.model]: limits, [DEFAULT_POOL]: limits },
    interactiveShare,
    interactiveIdleShare,
    interactiveDecayMs,
  };
}

/**
 * The speech budget: one pool named after the model, whose `input` dimension counts audio seconds. Every request
 * carries at least a second of audio, so the requests dimension, set to the same number, never binds first; output
 * is never drawn on. Requests in flight are a separate limit (speechConcurrencyOf).
 */
export function speechBudgetSettingsOf(config: Pick<Config, 'gateway' | 'speech'>): BudgetSettings {
  const perMinute = config.speech.audioSecondsPerMinute;
  const limits = { inputTokensPerMinute: perMinute, outputTokensPerMinute: perMinute, requestsPerMinute: perMinute };
  const { interactiveShare, interactiveIdleShare, interactiveDecayMs } = config.gateway;
  return {
    pools: { [config.speech.model]: limits, [DEFAULT_POOL]: limits },
    interactiveShare,
    interactiveIdleShare,
    interactiveDecayMs,
  };
}

/**
 * The gateway a worker process runs with: Redis-shared budget when REDIS_URL is set, in-process otherwise, none
 * when GATEWAY_BUDGET=off; the call profile it learns; and activity slots derived from both.
 */
export function gatewayFromConfig(
  config: Pick<Config, 'anthropic' | 'embeddings' | 'speech' | 'gateway' | 'worker'>,
  log: Logger,
  options: { redis?: Redis } = {},
): WiredGateway {
  const settings = budgetSettingsOf(config);
  const gatewayLog = log.child({ component: 'gateway' });
  const embeddingsSettings = embeddingsBudgetSettingsOf(config);
  let budget: TokenBudget | undefined;
  let embeddingsBudget: TokenBudget | undefined;
  let speechBudget: TokenBudget | undefined;
  let speechConcurrency: ConcurrencyLimit | undefined;
  let redis: Redis | undefined;
  if (config.gateway.budgetEnabled) {
    if (config.gateway.redisUrl || options.redis) {
      redis =
        options.redis ??
        new Redis(config.gateway.redisUrl as string, { maxRetriesPerRequest: 2, connectionName: 'slowlane-budget' });
      redis.on('error', (error: unknown) => gatewayLog.warn({ err: error }, 'redis connection trouble'));
      budget = new RedisBudget(redis, settings, { keyPrefix: config.gateway.redisKeyPrefix });
      embeddingsBudget = new RedisBudget(redis, embeddingsSettings, {
        keyPrefix: `${config.gateway.redisKeyPrefix}:embeddings`,
      });
      speechBudget = new RedisBudget(redis, speechBudgetSettingsOf(config), { keyPrefix: `${config.gateway.redisKeyPrefix}:speech` });
      speechConcurrency = new RedisConcurrencyLimit(redis, config.speech.maxConcurrentRequests, `${config.gateway.redisKeyPrefix}:speech`);
    } else {
      budget = new InProcessBudget(settings);
      embeddingsBudget = new InProcessBudget(embeddingsSettings);
      speechBudget = new InProcessBudget(speechBudgetSettingsOf(config));
      speechConcurrency = new InProcessConcurrencyLimit(config.speech.maxConcurrentRequests);
    }
  }
  const gateway = createModelGateway({
    client: createAnthropicClient(config.anthropic),
    prices: config.anthropic.prices,
    log: gatewayLog,
    constrainedModels: config.anthropic.constrainedOutputModels,
    ...(budget ? { budget: { budget, settings } } : {}),
  });
  const embeddings = createEmbeddingsGateway({
    settings: config.embeddings,
    log: gatewayLog.child({ provider: 'embeddings' }),
    ...(embeddingsBudget ? { budget: embeddingsBudget } : {}),
  });
  const speechDeps = {
    settings: config.speech,
    log: gatewayLog.child({ provider: 'speech' }),
    ...(speechBudget ? { budget: speechBudget } : {}),
    ...(speechConcurrency ? { concurrency: speechConcurrency } : {}),
  };
  const speech = createSpeechGateway(speechDeps);
  const speechAsync = createAssemblyAiSpeechGateway({ ...speechDeps, events: speech.events });
  const profile = new CallProfile(config.gateway.expected);
  gateway.events.subscribe(profile.listener);
  const stopPublishing = redis ? publishCallProfile(redis, config.gateway.redisKeyPrefix, profile) : () => undefined;

  /**
   * Little's law with what this worker sees: a model activity's time on its slot (the call plus reading the
   * text, heartbeats and Temporal's round trips) once activities have finished, the call latency before.
   */
  const plannedSlots = (hold: SlotHoldTimes) => {
    const observed = profile.snapshot();
    return planCapacity({
      limits: limitsOf(DEFAULT_POOL, settings),
      interactiveShare: settings.interactiveShare,
      callsPerJob: MODEL_CALLS_PER_JOB,
      inputTokensPerCall: observed.inputTokens,
      outputTokensPerCall: observed.outputTokens,
      reservedOutputTokensPerCall: observed.reservedOutputTokens,
      latencyMs: hold.modelMs ?? observed.latencyMs,
      // extractText and postInvoiceToLedger: one each per job.
      otherActivityMsPerJob: (hold.otherMs ?? 0) * 2,
      maxSlotsPerWorker: config.gateway.maxSlotsPerWorker,
      cpuMsPerJob: 0,
      coresPerWorker: 1,
    }).slotsPerWorker;
  };

  return {
    gateway,
    embeddings,
    speech,
    speechAsync,
    ...(budget ? { budget } : {}),
    profile,
    activitySlots(priority) {
      const override = config.worker.maxConcurrentActivities;
      if (!budget) return { type: 'fixed-size', numSlots: override ?? UNPACED_SLOTS };
      const slots: PacedActivitySlots = new PacedActivitySlots({
        priority,
        maxSlots: () => override ?? plannedSlots(slots.holdTimes()),
        budgetWait: (cost) => budget.wait(DEFAULT_POOL, priority, cost),
        typicalCost: () => profile.typicalCost(),
        modelActivityTypes: MODEL_ACTIVITY_TYPES,
      });
      gateway.events.subscribe(slots.listener);
      return slots;
    },
    close: async () => {
      stopPublishing();
      await budget?.close();
      // The Redis budgets and limits share one connection, which the first close ends; the in-process ones hold nothing.
      if (!redis) await Promise.all([embeddingsBudget?.close(), speechBudget?.close(), speechConcurrency?.close()]);
    },
  };
}
