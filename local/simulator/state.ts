import type { Clock } from './clock';
import { MessageBatchBook } from './batches/message-batch-book';
import { FaultRuleBook } from './fault-rules';
import { FileStore } from './files/file-store';
import { emptyRequestBytes, type RequestBytes, requestBytesKind } from './files/request-bytes';
import { EmbeddingsLimiter, type EmbeddingsLimits } from './embeddings/embeddings-limiter';
import { createIdGenerator } from './ids';
import { LimitHistory, sameLimits } from './limit-changes';
import { checkFaultRates, runtimeSettingsOf, type RuntimeSettings, type SimulatorOptions } from './options';
import { PromptCache } from './prompt-cache';
import { createRandom, type Random } from './random';
import { RateLimiter, type RateLimits } from './rate-limiter';
import { SimulatorStats } from './stats';
import { AsyncTranscripts } from './transcriptions/assemblyai/async-transcripts';
import { ProcessSlots } from './transcriptions/process-slots';
import { emptyTranscriptionStats, type TranscriptionStats } from './transcriptions/transcription-stats';
import { type TranscriptionLimits, TranscriptionsLimiter } from './transcriptions/transcriptions-limiter';

/** Separate random streams, so generating an id never shifts which request gets a random fault. */
const FAULT_STREAM = 0;
const ID_STREAM = 1;

export function limitsOf(settings: RuntimeSettings): RateLimits {
  return {
    requestsPerMinute: settings.requestsPerMinute,
    inputTokensPerMinute: settings.inputTokensPerMinute,
    outputTokensPerMinute: settings.outputTokensPerMinute,
  };
}

function embeddingsLimitsOf(settings: RuntimeSettings): EmbeddingsLimits {
  return { tokensPerMinute: settings.embedTokensPerMinute, requestsPerMinute: settings.embedRequestsPerMinute };
}

function transcriptionLimitsOf(settings: RuntimeSettings): TranscriptionLimits {
  return { audioSecondsPerMinute: settings.audioSecondsPerMinute, concurrentRequests: settings.audioConcurrentRequests };
}

/** What the embeddings endpoint answered: requests by status, and tokens billed. */
export interface EmbeddingStats {
  requests: number;
  byStatus: Record<string, number>;
  tokens: number;
  /** Of `tokens`, those of answers whose client had gone away (RouteContext.clientGone). */
  undeliveredTokens: number;
}

const emptyEmbeddingStats = (): EmbeddingStats => ({ requests: 0, byStatus: {}, tokens: 0, undeliveredTokens: 0 });

/** Everything the simulator remembers between requests: settings, buckets, fault rules, stats, random streams. */
export class SimulatorState {
  settings: RuntimeSettings;
  readonly limiter: RateLimiter;
  readonly embeddingsLimiter: EmbeddingsLimiter;
  embeddingStats: EmbeddingStats = emptyEmbeddingStats();
  readonly transcriptionsLimiter: TranscriptionsLimiter;
  transcriptionStats: TranscriptionStats = emptyTranscriptionStats();
  /** The AssemblyAI shape's uploads and transcripts; it shares the limiter and the engine with the OpenAI shape. */
  readonly asyncTranscripts = new AsyncTranscripts();
  /** pocketsphinx runs at once; read on every run, so `PUT /_sim/config` moves it. */
  readonly transcriberSlots = new ProcessSlots(() => this.settings.transcriberProcesses);
  readonly rules = new FaultRuleBook();
  readonly stats = new SimulatorStats();
  readonly promptCache: PromptCache;
  /** The Messages API limits the simulator started with, and every change since (`/_sim/limits`). */
  readonly limitHistory: LimitHistory;
  readonly batches = new MessageBatchBook(this);
  /** The Files API's uploads (files/). */
  readonly files = new FileStore();
  /** Request bodies received, by endpoint (`GET /_sim/request-bytes`). */
  requestBytes: RequestBytes = emptyRequestBytes();
  faultRandom!: Random;
  newId!: ReturnType<typeof createIdGenerator>;

  constructor(
    options: SimulatorOptions,
    readonly clock: Clock,
  ) {
    this.settings = runtimeSettingsOf(options);
    checkFaultRates(this.settings);
    this.limiter = new RateLimiter(limitsOf(this.settings), clock);
    this.limitHistory = new LimitHistory(limitsOf(this.settings));
    this.embeddingsLimiter = new EmbeddingsLimiter(embeddingsLimitsOf(this.settings), clock);
    this.transcriptionsLimiter = new TranscriptionsLimiter(transcriptionLimitsOf(this.settings), clock);
    this.promptCache = new PromptCache(clock, () => this.settings);
    this.reseed();
  }

  private reseed(): void {
    this.faultRandom = createRandom(this.settings.seed, FAULT_STREAM);
    this.newId = createIdGenerator(createRandom(this.settings.seed, ID_STREAM));
  }

  /** Applies a validated patch; throws ConfigError (and changes nothing) when the result is inconsistent. */
  applySettings(patch: Partial<RuntimeSettings>): RuntimeSettings {
    const next = { ...this.settings, ...patch };
    checkFaultRates(next);
    const seedChanged = next.seed !== this.settings.seed;
    const limitsMoved = !sameLimits(limitsOf(this.settings), limitsOf(next));
    this.settings = next;
    const levelChange = this.limiter.resize(limitsOf(next));
    if (limitsMoved) this.limitHistory.record({ at: this.clock.now(), limits: limitsOf(next), levelChange });
    this.embeddingsLimiter.resize(embeddingsLimitsOf(next));
    this.transcriptionsLimiter.resize(transcriptionLimitsOf(next));
    if (seedChanged) this.reseed();
    return this.settings;
  }

  countRequestBytes(pathname: string, bytes: number): void {
    this.requestBytes[requestBytesKind(pathname)] += bytes;
  }

  /** Back to a fresh start with the current settings: a seeded run after reset repeats the first one. */
  reset(): void {
    this.stats.reset();
    this.rules.clear();
    this.limiter.refillAll();
    this.embeddingsLimiter.refillAll();
    this.embeddingStats = emptyEmbeddingStats();
    this.transcriptionsLimiter.refillAll();
    this.transcriptionStats = emptyTranscriptionStats();
    this.asyncTranscripts.clear();
    this.promptCache.clear();
    this.batches.clear();
    this.files.clear();
    this.requestBytes = emptyRequestBytes();
    this.reseed();
  }
}
