import type { Stack } from '../../local/stack/stack';
import { connectBenchClient } from '../bench-stack';

export interface JobTimes {
  startedAt: number;
  /** When the workflow completed (posted, rejected or review expired); absent while it runs or is parked. */
  closedAt?: number;
  status: string;
  jobStatus?: string;
}

export interface SimulatorStats {
  requests: number;
  byStatus: Record<string, number>;
  inputTokens: number;
  cacheCreationInputTokens: number;
  outputTokens: number;
  rejectedInputTokens: number;
}

/** Start and close times of every job, from Temporal's visibility store: the server's clock, no polling of jobs. */
export async function listJobTimes(stack: Stack): Promise<Map<string, JobTimes>> {
  const {
    client: { workflow: client },
    connection,
  } = await connectBenchClient(stack);
  try {
    const times = new Map<string, JobTimes>();
    for await (const execution of client.list({ query: `WorkflowType = 'invoiceWorkflow'` })) {
      const jobStatus = execution.searchAttributes?.JobStatus?.[0];
      times.set(execution.workflowId, {
        startedAt: execution.startTime.getTime(),
        ...(execution.status.name === 'COMPLETED' && execution.closeTime
          ? { closedAt: execution.closeTime.getTime() }
          : {}),
        status: execution.status.name,
        ...(typeof jobStatus === 'string' ? { jobStatus } : {}),
      });
    }
    return times;
  } finally {
    await connection.close();
  }
}

export async function simulatorStats(simulatorUrl: string): Promise<SimulatorStats> {
  const response = await fetch(`${simulatorUrl}/_sim/stats`);
  return (await response.json()) as SimulatorStats;
}

export async function simulatorCalls(
  simulatorUrl: string,
  marker: string,
): Promise<Array<{ status: number; inputTokens: number; outputTokens: number }>> {
  const response = await fetch(`${simulatorUrl}/_sim/calls?textIncludes=${encodeURIComponent(marker)}`);
  return ((await response.json()) as { calls: Array<{ status: number; inputTokens: number; outputTokens: number }> })
    .calls;
}

/**
 * The provider's input tokens left, read from the rate-limit headers of a token count (which the simulator
 * does not bill or limit).
 */
export async function providerInputTokensLeft(simulatorUrl: string): Promise<number | undefined> {
  const response = await fetch(`${simulatorUrl}/v1/messages/count_tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'bench' },
    body: JSON.stringify({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'x' }] }),
  });
  await response.body?.cancel();
  const remaining = Number(response.headers.get('anthropic-ratelimit-input-tokens-remaining'));
  return Number.isFinite(remaining) ? remaining : undefined;
}

/**
 * The provider's bucket starts full: waits until the fleet has spent it down to `steady` input tokens left (the
 * steady state a window should start in), or until `limitMs` has passed. Returns the tokens left then.
 */
export async function waitForSteadyProvider(simulatorUrl: string, steady: number, limitMs: number): Promise<number | undefined> {
  const until = Date.now() + limitMs;
  let left = await providerInputTokensLeft(simulatorUrl);
  while ((left ?? 0) > steady && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    left = await providerInputTokensLeft(simulatorUrl);
  }
  return left;
}
