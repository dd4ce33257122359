/**
 * The figures of a moving-limit run. The ceiling is what the provider's input bucket offered a client that spends
 * everything, integrated over time: what the bucket held when the first phase opened, plus each phase's limit × its
 * length, plus what each change of limit did to the bucket (a lowered limit keeps what was used, so it takes the
 * difference; a restored one adds it). Goodput is the input tokens the provider admitted on answered calls ÷ that
 * ceiling, so tokens left unspent at the end (the interactive reserve held back included) count against it.
 */

/** One provider call from the simulator's log, placed at the moment its input tokens left the bucket. */
export interface AdmittedCall {
  admittedAt: number;
  status: number;
  /** What the provider's input bucket counts: fresh input and cache writes. */
  bucketInputTokens: number;
}

/** A phase's edges as the simulator's input bucket saw them. */
export interface PhaseEdges {
  name: 'full' | 'lowered' | 'restored';
  startedAt: number;
  endedAt: number;
  inputLimitPerMinute: number;
  /** The bucket's exact level just after the phase's limit took effect, and just before the phase ended. */
  levelAtStart: number;
  levelAtEnd: number;
}

export interface PhaseFigures {
  name: PhaseEdges['name'];
  seconds: number;
  inputLimitPerMinute: number;
  offeredInputTokens: number;
  admittedInputTokens: number;
  goodput: number;
  providerCalls: number;
  refused429: number;
}

export interface MovingFigures {
  /** Admitted ÷ offered input tokens over the three phases. Target ≥ 0.95. */
  goodput: number;
  offeredInputTokens: number;
  admittedInputTokens: number;
  /** 429s ÷ provider calls over the three phases. Target ≤ 0.005. */
  rate429: number;
  providerCalls: number;
  refused429: number;
  phases: PhaseFigures[];
  /** From each change to the moment Redis held the new limit for the fleet; null: not within the phase. */
  followMs: { lowered: number | null; restored: number | null };
  /** Jobs that completed within the three phases, and jobs failed or dead-lettered by the end (context, no target). */
  jobs: { completedInPhases: number; completedPerMinute: number; failed: number };
}

export const MOVING_TARGETS = { goodput: 0.95, rate429: 0.005, followMs: 5_000 };

/** `carried`: what the bucket held as the phase opened (first phase), or what the change of limit did to it. */
export function phaseFigures(edges: PhaseEdges, carried: number, calls: readonly AdmittedCall[]): PhaseFigures {
  const inPhase = calls.filter((call) => call.admittedAt >= edges.startedAt && call.admittedAt < edges.endedAt);
  const offered = (edges.inputLimitPerMinute * (edges.endedAt - edges.startedAt)) / 60_000 + carried;
  const admitted = inPhase
    .filter((call) => call.status === 200)
    .reduce((sum, call) => sum + call.bucketInputTokens, 0);
  return {
    name: edges.name,
    seconds: (edges.endedAt - edges.startedAt) / 1000,
    inputLimitPerMinute: edges.inputLimitPerMinute,
    offeredInputTokens: Math.round(offered),
    admittedInputTokens: admitted,
    goodput: offered > 0 ? admitted / offered : 0,
    providerCalls: inPhase.length,
    refused429: inPhase.filter((call) => call.status === 429).length,
  };
}

export function movingFigures(
  edges: readonly PhaseEdges[],
  calls: readonly AdmittedCall[],
  followMs: MovingFigures['followMs'],
  jobs: MovingFigures['jobs'] = { completedInPhases: 0, completedPerMinute: 0, failed: 0 },
): MovingFigures {
  const phases = edges.map((phase, index) => {
    const before = edges[index - 1];
    return phaseFigures(phase, before ? phase.levelAtStart - before.levelAtEnd : phase.levelAtStart, calls);
  });
  const sum = (pick: (phase: PhaseFigures) => number) => phases.reduce((total, phase) => total + pick(phase), 0);
  const offered = sum((phase) => phase.offeredInputTokens);
  const providerCalls = sum((phase) => phase.providerCalls);
  const refused429 = sum((phase) => phase.refused429);
  return {
    goodput: offered > 0 ? sum((phase) => phase.admittedInputTokens) / offered : 0,
    offeredInputTokens: offered,
    admittedInputTokens: sum((phase) => phase.admittedInputTokens),
    rate429: providerCalls > 0 ? refused429 / providerCalls : 0,
    providerCalls,
    refused429,
    phases,
    followMs,
    jobs,
  };
}

export function movingTargetsMet(figures: MovingFigures): Record<keyof typeof MOVING_TARGETS, boolean> {
  const follows = [figures.followMs.lowered, figures.followMs.restored];
  return {
    goodput: figures.goodput >= MOVING_TARGETS.goodput,
    rate429: figures.rate429 <= MOVING_TARGETS.rate429,
    followMs: follows.every((ms) => ms !== null && ms <= MOVING_TARGETS.followMs),
  };
}
