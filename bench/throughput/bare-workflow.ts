import { proxyActivities } from '@temporalio/workflow';

export interface BareActivities {
  noop(): Promise<void>;
}

// A task lost on an overloaded machine is noticed as soon as a job's step would notice it (its heartbeat timeout),
// so a lost task costs the ceiling what it costs a job.
const { noop } = proxyActivities<BareActivities>({ startToCloseTimeout: '1 minute', heartbeatTimeout: '15 seconds' });

/** The ceiling: a workflow that runs as many activities as a job does, each doing nothing, one after another. */
export async function bareWorkflow(input: { activities: number }): Promise<void> {
  for (let i = 0; i < input.activities; i++) await noop();
}
