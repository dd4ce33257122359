import type { ActivityOptions } from '@temporalio/workflow';
import type { BatchCollectorSettings } from '../../common/batch-lane';
import { NON_RETRYABLE_ERROR_TYPES } from '../../common/errors';

/**
 * The batch lane's calls: short HTTP and S3 round trips, retried for a while (a killed worker's attempt times out
 * and the next one repeats it safely: activities/batch-lane). Past the attempts the job takes the live path.
 */
export const batchLaneOptions: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: '20 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    maximumAttempts: 8,
    nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES],
  },
};

/** The lane's options on the lane's own queue, where the settings name one (common/task-queues.ts says why). */
export function laneActivityOptions(settings: BatchCollectorSettings, options: ActivityOptions = batchLaneOptions): ActivityOptions {
  return settings.activityTaskQueue ? { ...options, taskQueue: settings.activityTaskQueue } : options;
}
