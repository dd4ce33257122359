import type { FaultSpec } from './fault-spec';

export interface ArmedFault extends FaultSpec {
  remaining: number;
}

/**
 * Holds the one armed fault. Each `POST /entries` takes one use on arrival, so "times: 2" means
 * "the next two posts", whatever they turn out to be.
 */
export class FaultInjector {
  private armed: ArmedFault | undefined;
  private injected = 0;

  arm(spec: FaultSpec): ArmedFault {
    this.armed = { ...spec, remaining: spec.times };
    return { ...this.armed };
  }

  clear(): void {
    this.armed = undefined;
  }

  current(): ArmedFault | undefined {
    return this.armed ? { ...this.armed } : undefined;
  }

  take(): FaultSpec | undefined {
    const fault = this.armed;
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.armed = undefined;
    this.injected += 1;
    return { kind: fault.kind, times: fault.times, delayMs: fault.delayMs, failWith: fault.failWith };
  }

  get injectedCount(): number {
    return this.injected;
  }
}
