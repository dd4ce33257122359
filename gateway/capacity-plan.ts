import type { ModelLimits } from '../lib/config';

/** The invoice workflow's model calls per job: classifyDocument, then extractInvoiceFields (a schema retry adds one, rarely). */
export const MODEL_CALLS_PER_JOB = 2;
/** Slots kept free beyond the plan, so a task can start the moment another finishes. */
const SPARE_SLOTS = 2;
/** Latency varies call to call; a quarter more slots than the mean needs keeps the budget, not slots, the limit. */
const SLOT_MARGIN = 1.25;

export interface CapacityInputs {
  limits: ModelLimits;
  interactiveShare: number;
  callsPerJob: number;
  /** Billed per call. */
  inputTokensPerCall: number;
  outputTokensPerCall: number;
  /** max_tokens per call: held against output tokens per minute while the call runs. */
  reservedOutputTokensPerCall: number;
  latencyMs: number;
  /** Slot time a job's other activities take (text extraction, ledger post); 0 when not observed yet. */
  otherActivityMsPerJob?: number;
  maxSlotsPerWorker: number;
  /** CPU a job takes in the worker (text extraction, mostly) and the cores a worker process gets. */
  cpuMsPerJob: number;
  coresPerWorker: number;
}

export type BindingLimit = 'input tokens' | 'output tokens' | 'requests' | 'output reservations in flight';

export interface CapacityPlan {
  tokensPerJob: { input: number; output: number };
  /** Jobs per minute the whole fleet can finish: more workers cannot raise it, only the provider's limits. */
  ceilingJobsPerMinute: number;
  bindingLimit: BindingLimit;
  /** What interactive jobs get even while bulk uses everything else. */
  interactiveReservedJobsPerMinute: number;
  modelCallsPerSecond: number;
  /** Little's law: calls in flight = calls per second × seconds per call (a call's slot time, when observed). */
  modelCallsInFlight: number;
  /**
   * Activity slots per worker process. Each worker is sized to carry the whole budget alone, because either
   * class may use all of it while the other is idle; the budget's poll pacing keeps the fleet within the limits
   * whatever the slot count, so extra slots cost nothing and too few would cap throughput below the ceiling.
   */
  slotsPerWorker: number;
  /** Cores the fleet's workers burn at the ceiling. */
  coresAtCeiling: number;
  /**
   * Enough workers for the slots and the CPU the ceiling needs; beyond this, workers only wait on the budget.
   * The KEDA maxReplicaCount of each queue's Deployment.
   */
  workersWorthRunning: number;
}

/** The fleet's plan from the provider's limits and what a call costs and takes (Little's law). */
export function planCapacity(inputs: CapacityInputs): CapacityPlan {
  const { limits, callsPerJob, latencyMs } = inputs;
  const inputPerJob = inputs.inputTokensPerCall * callsPerJob;
  const outputPerJob = inputs.outputTokensPerCall * callsPerJob;
  const latencyMinutes = latencyMs / 60_000;
  // A bucket holds one minute's allowance, so max_tokens reservations of the calls in flight must fit in it.
  const reservationsInFlight = limits.outputTokensPerMinute / Math.max(1, inputs.reservedOutputTokensPerCall);
  const candidates: Array<[BindingLimit, number]> = [
    ['input tokens', limits.inputTokensPerMinute / Math.max(1, inputPerJob)],
    ['output tokens', limits.outputTokensPerMinute / Math.max(1, outputPerJob)],
    ['requests', limits.requestsPerMinute / callsPerJob],
    [
      'output reservations in flight',
      latencyMinutes > 0 ? reservationsInFlight / latencyMinutes / callsPerJob : Infinity,
    ],
  ];
  const [bindingLimit, ceilingJobsPerMinute] = candidates.reduce((lowest, candidate) =>
    candidate[1] < lowest[1] ? candidate : lowest,
  );
  const modelCallsPerSecond = (ceilingJobsPerMinute * callsPerJob) / 60;
  const modelCallsInFlight = modelCallsPerSecond * (latencyMs / 1000);
  const otherInFlight = (ceilingJobsPerMinute / 60) * ((inputs.otherActivityMsPerJob ?? 0) / 1000);
  const wanted = Math.ceil((modelCallsInFlight + otherInFlight) * SLOT_MARGIN) + SPARE_SLOTS;
  const slotsPerWorker = Math.max(1, Math.min(inputs.maxSlotsPerWorker, wanted));
  const coresAtCeiling = ((ceilingJobsPerMinute / 60) * inputs.cpuMsPerJob) / 1000;
  return {
    tokensPerJob: { input: inputPerJob, output: outputPerJob },
    ceilingJobsPerMinute,
    bindingLimit,
    interactiveReservedJobsPerMinute: ceilingJobsPerMinute * inputs.interactiveShare,
    modelCallsPerSecond,
    modelCallsInFlight,
    slotsPerWorker,
    coresAtCeiling,
    workersWorthRunning: Math.max(
      1,
      Math.ceil(wanted / inputs.maxSlotsPerWorker),
      Math.ceil(coresAtCeiling / inputs.coresPerWorker),
    ),
  };
}
