import type { Static } from '@sinclair/typebox';
import type { JobTypeDefinition } from './job-type';
import { callJobType } from './call/definition';
import { documentJobType } from './document/definition';
import { invoiceJobType } from './invoice/definition';
import { orderScoreJobType } from './order-score/definition';
import { ticketsDigestJobType } from './tickets-digest/definition';

/**
 * Every job type, one line each. Adding a type: its folder here (definition.ts, <type>-job.ts), its workflow exported
 * from workflows/index.ts, its activities' factory composed in activities/index.ts (docs/job-types.md#adding-a-type).
 */
export const JOB_TYPE_DEFINITIONS = [invoiceJobType, orderScoreJobType, documentJobType, ticketsDigestJobType, callJobType] as const;

type Registered = (typeof JOB_TYPE_DEFINITIONS)[number];
export type JobType = Registered['name'];
export type RegisteredStep = Registered['steps'][number];
/** Any registered type's result, as its schema types it. */
export type RegisteredResult = Static<Registered['result']>;

export const JOB_TYPES = JOB_TYPE_DEFINITIONS.map((definition) => definition.name) as readonly JobType[] as readonly [
  JobType,
  ...JobType[],
];

const byName = new Map<string, JobTypeDefinition>(JOB_TYPE_DEFINITIONS.map((definition) => [definition.name, definition]));
const byWorkflowType = new Map<string, JobTypeDefinition>(JOB_TYPE_DEFINITIONS.map((definition) => [definition.workflowType, definition]));

export function isJobType(name: unknown): name is JobType {
  return typeof name === 'string' && byName.has(name);
}

/** The definition of a registered type, or undefined for any other name. */
export function jobTypeNamed(name: string): JobTypeDefinition | undefined {
  return byName.get(name);
}

/** The type whose workflow this is (the dead-letter list and replay find jobs by workflow type). */
export function jobTypeOfWorkflow(workflowType: string): JobTypeDefinition | undefined {
  return byWorkflowType.get(workflowType);
}

/** Every workflow type that runs a job: visibility queries over all jobs name these. */
export const JOB_WORKFLOW_TYPES: readonly string[] = JOB_TYPE_DEFINITIONS.map((definition) => definition.workflowType);

/** `order.score` → `OrderScore`: the prefix of the type's components in the OpenAPI document. */
export function componentPrefixOf(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}
