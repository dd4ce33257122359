import { JOB_WORKFLOW_TYPES } from '../common/job-types/registry';
import { errorTypeAliases } from '../common/errors';
import { JOB_STEPS, type JobStep } from '../common/job';
import { TENANT_ID_PATTERN } from '../common/job-id';
import { recordedNamesOf } from '../common/job-steps';

export const ERROR_TYPE_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;

export interface DeadLetterFilter {
  step?: JobStep;
  errorType?: string;
  tenantId?: string;
  /** Parked at least this long. */
  olderThanMs?: number;
  /** Parked at most this long. */
  newerThanMs?: number;
}

/** Every registered type's workflow (common/job-types/registry.ts): webhook deliveries share the namespace. */
export function jobWorkflowsClause(): string {
  return `WorkflowType IN (${JOB_WORKFLOW_TYPES.map((type) => `'${type}'`).join(', ')})`;
}

export class InvalidFilterError extends Error {
  override readonly name = 'InvalidFilter';
}

/**
 * The Temporal visibility query for parked jobs: the same text filters `GET /admin/dead-letters`, the replay
 * tool's `--query` and the Web UI's search box. Values are checked against their patterns, never quoted blindly.
 */
export function deadLetterQuery(filter: DeadLetterFilter, now = new Date()): string {
  const clauses = [jobWorkflowsClause(), `ExecutionStatus = 'Running'`, `JobStatus = 'dead_letter'`];
  if (filter.step !== undefined) {
    if (!JOB_STEPS.includes(filter.step)) throw new InvalidFilterError(`step must be one of ${JOB_STEPS.join(', ')}`);
    const names = recordedNamesOf(filter.step).map((name) => `'${name}'`);
    clauses.push(names.length === 1 ? `JobStep = ${names[0]}` : `JobStep IN (${names.join(', ')})`);
  }
  if (filter.errorType !== undefined) {
    if (!ERROR_TYPE_PATTERN.test(filter.errorType)) throw new InvalidFilterError('errorType must be a type name such as ModelRequestInvalidError');
    // Jobs parked before error types became class names carry the old name; one filter finds both.
    const aliases = errorTypeAliases(filter.errorType);
    clauses.push(aliases.length === 1 ? `ErrorType = '${filter.errorType}'` : `ErrorType IN (${aliases.map((type) => `'${type}'`).join(', ')})`);
  }
  if (filter.tenantId !== undefined) {
    if (!TENANT_ID_PATTERN.test(filter.tenantId)) throw new InvalidFilterError('tenant must be a tenant id');
    clauses.push(`TenantId = '${filter.tenantId}'`);
  }
  // An age reaching back before 1970 means "since ever": nothing was parked earlier, and Temporal cannot read a
  // negative year (a 500 once), nor can toISOString make a date beyond the calendar.
  const before = (ms: number) => {
    if (Number.isNaN(ms)) throw new InvalidFilterError('olderThan and newerThan must be ages, e.g. 2h or 3d');
    return new Date(Math.max(0, now.getTime() - ms)).toISOString();
  };
  if (filter.olderThanMs !== undefined) clauses.push(`StatusSince <= '${before(filter.olderThanMs)}'`);
  if (filter.newerThanMs !== undefined) clauses.push(`StatusSince >= '${before(filter.newerThanMs)}'`);
  return clauses.join(' AND ');
}
