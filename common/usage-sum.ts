import type { Usage } from './job';

/**
 * Two usages added up, member by member. Workflow-safe (the job tracker sums its steps with it) and used by the
 * repair loop for its calls. The cache members are optional: results recorded before prompt caching have neither.
 */
export function addUsage(total: Usage, more: Usage): Usage {
  return {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    cacheCreationInputTokens: (total.cacheCreationInputTokens ?? 0) + (more.cacheCreationInputTokens ?? 0),
    cacheReadInputTokens: (total.cacheReadInputTokens ?? 0) + (more.cacheReadInputTokens ?? 0),
    costUsd: total.costUsd + more.costUsd,
    calls: total.calls + more.calls,
    ...(total.byLane || more.byLane ? { byLane: addLanes(total.byLane, more.byLane) } : {}),
  };
}

type ByLane = NonNullable<Usage['byLane']>;

function addLanes(total: ByLane = {}, more: ByLane = {}): ByLane {
  const sum: ByLane = {};
  for (const lane of ['live', 'batch'] as const) {
    const a = total[lane];
    const b = more[lane];
    if (a || b) sum[lane] = { calls: (a?.calls ?? 0) + (b?.calls ?? 0), costUsd: (a?.costUsd ?? 0) + (b?.costUsd ?? 0) };
  }
  return sum;
}
