import type { Priority } from '../../common/task-queues';
import type { CallUsage } from '../model-call';

export interface EmbedRequest {
  jobId: string;
  /** The tenant whose spend caps the call counts against (gateway/spend/); none: uncounted (benchmarks, tools). */
  tenantId?: string;
  priority: Priority;
  /** One vector per input, in order. */
  inputs: string[];
  /** `document` for text that is indexed, `query` for what is searched with (the provider prepends a prompt). */
  inputType: 'document' | 'query';
  signal?: AbortSignal;
}

export interface EmbedResult {
  vectors: number[][];
  model: string;
  usage: CallUsage;
}

/** The gateway's door to the embeddings provider: its own budget, pricing and 429 handling (docs/gateway.md). */
export interface EmbeddingsGateway {
  embed(request: EmbedRequest): Promise<EmbedResult>;
}
