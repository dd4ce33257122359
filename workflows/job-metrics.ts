import { proxySinks } from '@temporalio/workflow';
import type { JobMetricsSinks } from '../common/job-metrics';

export const { jobMetrics } = proxySinks<JobMetricsSinks>();
