import type { CallCost } from './budget/bucket-math';
import type { GatewayEvent } from './gateway-events';

export interface ExpectedCall {
  latencyMs: number;
  inputTokensPerCall: number;
  outputTokensPerCall: number;
}

export interface CallProfileSnapshot {
  latencyMs: number;
  /** Input tokens a call reserves (the estimate) and bills. */
  inputTokens: number;
  /** Output tokens a call reserves (max_tokens) and really writes. */
  reservedOutputTokens: number;
  outputTokens: number;
  observedCalls: number;
}

/** Weight of each new call: the profile follows a change in documents or provider speed within tens of calls. */
const SMOOTHING = 0.1;

/**
 * What a model call typically costs and how long it takes, learned from the calls this process made (successful
 * ones: refused calls are quick and would make the provider look faster than it is), starting from the
 * configured expectation. The worker sizes and paces its activity slots from it (Little's law).
 */
export class CallProfile {
  private current: CallProfileSnapshot;

  constructor(expected: ExpectedCall) {
    this.current = {
      latencyMs: expected.latencyMs,
      inputTokens: expected.inputTokensPerCall,
      reservedOutputTokens: expected.outputTokensPerCall,
      outputTokens: expected.outputTokensPerCall,
      observedCalls: 0,
    };
  }

  readonly listener = (event: GatewayEvent): void => {
    if (event.type !== 'call' || event.status !== 200) return;
    const previous = this.current;
    const weight = previous.observedCalls === 0 ? 1 : SMOOTHING;
    const blend = (old: number, observed: number) => old + weight * (observed - old);
    this.current = {
      latencyMs: blend(previous.latencyMs, event.latencyMs),
      inputTokens: blend(previous.inputTokens, event.reserved.input),
      reservedOutputTokens: blend(previous.reservedOutputTokens, event.reserved.output),
      outputTokens: blend(previous.outputTokens, event.outputTokens),
      observedCalls: previous.observedCalls + 1,
    };
  };

  snapshot(): CallProfileSnapshot {
    return { ...this.current };
  }

  /** What one typical call reserves. */
  typicalCost(): CallCost {
    return { input: this.current.inputTokens, output: this.current.reservedOutputTokens, requests: 1 };
  }
}
