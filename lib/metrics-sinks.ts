import type { InjectedSinks } from '@temporalio/worker';
import type { JobMetricsSinks } from '../common/job-metrics';
import type { WorkerMetrics } from './metrics-worker';

/**
 * The worker side of the workflow's `jobMetrics` sink. Not called during replay (the SDK's default), so a
 * workflow re-run from history after a worker restart is not counted again.
 */
export function jobMetricsSinks(metrics: WorkerMetrics): InjectedSinks<JobMetricsSinks> {
  return {
    jobMetrics: {
      jobFinished: {
        fn: (_info, { jobType, priority, status, durationMs, usage }) => {
          metrics.jobsFinished.inc({ job_type: jobType, priority, status });
          metrics.jobDuration.observe({ job_type: jobType, priority, status }, durationMs / 1000);
          metrics.jobTokens.observe({ job_type: jobType, priority, direction: 'input' }, usage.inputTokens);
          metrics.jobTokens.observe({ job_type: jobType, priority, direction: 'output' }, usage.outputTokens);
          metrics.jobCost.observe({ job_type: jobType, priority }, usage.costUsd);
        },
      },
      stepFinished: {
        fn: (_info, { step, priority, outcome, durationMs }) =>
          metrics.stepDuration.observe({ step, priority, outcome }, durationMs / 1000),
      },
      deadLettered: {
        fn: (_info, { step, priority, errorType }) => metrics.deadLetters.inc({ step, priority, error_type: errorType }),
      },
      deadLetterDecided: {
        fn: (_info, { step, priority, outcome }) => metrics.deadLetterDecisions.inc({ step, priority, outcome }),
      },
      reviewFinished: {
        fn: (_info, { priority, outcome, waitMs }) => metrics.reviewWait.observe({ priority, outcome }, waitMs / 1000),
      },
      webhookGivenUp: {
        fn: (_info, { errorType }) => metrics.webhooksGivenUp.inc({ error_type: errorType }),
      },
      pushGivenUp: {
        fn: (_info, { errorType }) => metrics.pushesGivenUp.inc({ error_type: errorType }),
      },
    },
  };
}
