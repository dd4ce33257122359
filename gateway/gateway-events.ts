import type { Priority } from '../common/task-queues';
import type { CallCost, Dimension } from './budget/bucket-math';

/**
 * What the gateway tells whoever listens (metrics, the worker's poll pacing, tests). Listeners run synchronously
 * and must not throw; one that does is logged and ignored, never allowed to fail a model call.
 */
export type GatewayEvent =
  | { type: 'reserved'; jobId: string; model: string; pool: string; priority: Priority; cost: CallCost }
  | {
      type: 'denied';
      jobId: string;
      model: string;
      pool: string;
      priority: Priority;
      waitMs: number;
      /** A budget dimension, a provider's pause, or a concurrency limit with every slot in flight (speech). */
      limitedBy: Dimension | 'paused' | 'concurrency';
    }
  | {
      type: 'call';
      jobId: string;
      model: string;
      pool: string;
      priority: Priority;
      /** HTTP status, or 0 when no answer came (connection error, timeout, cancelled). */
      status: number;
      latencyMs: number;
      /** What went into the budget before the call: input estimate, max_tokens, one request. */
      reserved: CallCost;
      /** Billed tokens and their cost; zero for calls the provider refused. */
      inputTokens: number;
      outputTokens: number;
      cacheCreationInputTokens: number;
      cacheReadInputTokens: number;
      costUsd: number;
    }
  | { type: 'paused'; pool: string; pauseMs: number; model: string };

export type GatewayListener = (event: GatewayEvent) => void;

export class GatewayEvents {
  private readonly listeners = new Set<GatewayListener>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  /** Returns the function that unsubscribes. */
  subscribe(listener: GatewayListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: GatewayEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}
