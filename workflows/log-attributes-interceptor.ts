import { workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';

/**
 * Workflow log lines carry the job id and tenant beside the SDK's workflow id and run id, so one grep finds a
 * job's lines from the API, the workflow and its activities. Registered in the bundle (workers/create-workers.ts).
 */
export const interceptors: WorkflowInterceptorsFactory = () => ({
  outbound: [
    {
      getLogAttributes(input, next) {
        const { workflowId, memo } = workflowInfo();
        const tenantId = memo?.tenantId;
        return next({ ...input, jobId: workflowId, ...(typeof tenantId === 'string' ? { tenantId } : {}) });
      },
    },
  ],
});
