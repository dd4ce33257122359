import type {
  ActivityExecuteInput,
  ActivityInboundCallsInterceptor,
  ActivityInterceptors,
  ActivityOutboundCallsInterceptor,
  GetLogAttributesInput,
  Next,
} from '@temporalio/worker';
import { isActivityStep } from '../common/job-steps';

/**
 * Adds the job's tenant, id and step to every `activity.log` line (the SDK already adds workflow id, run id and
 * activity type; the OpenTelemetry interceptor adds the trace id). The ids come from the activity's input.
 */
export function activityLogContext(): ActivityInterceptors {
  let attributes: Record<string, unknown> = {};
  const inbound: ActivityInboundCallsInterceptor = {
    execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>) {
      const { jobId, tenantId } = (input.args[0] ?? {}) as { jobId?: unknown; tenantId?: unknown };
      attributes = {
        ...(typeof jobId === 'string' ? { jobId } : {}),
        ...(typeof tenantId === 'string' ? { tenantId } : {}),
      };
      return next(input);
    },
  };
  const outbound: ActivityOutboundCallsInterceptor = {
    getLogAttributes(input: GetLogAttributesInput, next: Next<ActivityOutboundCallsInterceptor, 'getLogAttributes'>) {
      const { activityType } = input;
      const step = typeof activityType === 'string' && isActivityStep(activityType) ? activityType : undefined;
      return next({ ...input, ...attributes, ...(step ? { step } : {}) });
    },
  };
  return { inbound, outbound };
}
