import { proxyActivities, workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';

/**
 * A deliberately broken deploy for the negative replay test, for any workflow type: the type's workflow as if
 * someone had added a step before its first one and shipped it without `patched()`. Every run of that type that
 * had already started fails to replay on it, and runs of the other types do not notice.
 *
 * One bundle serves every type's check: a replay names the type to alter in the workflow id it gives the run
 * (`alteredReplayId`), the only thing a replay of a recorded history can choose.
 */
export const alteredReplayId = (workflowType: string, history: string): string => `altered:${workflowType}:${history}`;

/** No worker has this activity: only a replay ever meets the command. */
const inserted = proxyActivities<{ stepInsertedWithoutPatch(): Promise<void> }>({ startToCloseTimeout: '1 minute' });

export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        const { workflowId, workflowType } = workflowInfo();
        if (workflowId.startsWith(alteredReplayId(workflowType, ''))) await inserted.stepInsertedWithoutPatch();
        return next(input);
      },
    },
  ],
});
