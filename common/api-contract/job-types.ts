import { type TSchema, Type } from '@sinclair/typebox';
import type { JobTypeDefinition } from '../job-types/job-type';
import { componentPrefixOf, JOB_TYPE_DEFINITIONS, type RegisteredResult } from '../job-types/registry';
import type { PRIORITIES } from '../task-queues';
import { Deadline } from './deadline';
import { closed, COMPONENTS_PATH, stringEnum } from './schema-kit';

/**
 * The bodies each job type brings, derived from its definition (common/job-types): `<Type>Input` for a JSON input,
 * `<Type>Result`, `<Type>Proposal`, and `Submit<Type>Job`, one alternative of the JSON `POST /jobs` body. No
 * type is named here: a new definition in the registry appears in the OpenAPI document and the validators.
 */

const refTo = (name: string): TSchema => Type.Unsafe({ $ref: `${COMPONENTS_PATH}${name}` });
const prefix = (definition: JobTypeDefinition) => componentPrefixOf(definition.name);

export const jobTypeComponentNames = {
  input: (definition: JobTypeDefinition) => `${prefix(definition)}Input`,
  result: (definition: JobTypeDefinition) => `${prefix(definition)}Result`,
  proposal: (definition: JobTypeDefinition) => `${prefix(definition)}Proposal`,
  submission: (definition: JobTypeDefinition) => `Submit${prefix(definition)}Job`,
};

const definitions: readonly JobTypeDefinition[] = JOB_TYPE_DEFINITIONS;
const jsonTypes = definitions.filter((definition) => definition.input.kind === 'json');
const proposing = definitions.filter((definition) => definition.proposal !== undefined);
const editing = definitions.flatMap((definition) => (definition.reviewer.editable ? [definition.reviewer.editable] : []));

/** The types a multipart upload may name (the others take a JSON body). */
export const FILE_JOB_TYPES = definitions.filter((definition) => definition.input.kind === 'file').map((definition) => definition.name);
export const JSON_JOB_TYPES = jsonTypes.map((definition) => definition.name);

const callbackUrl = Type.Optional(
  Type.String({
    format: 'uri',
    description:
      'Where signed webhooks go (Standard Webhooks). http(s) only; loopback, private and link-local targets are refused unless the deployment allows them. Defaults to the tenant’s `defaultCallbackUrl`.',
  }),
);
const priority = Type.Optional(
  Type.Unsafe<(typeof PRIORITIES)[number]>({ $ref: `${COMPONENTS_PATH}Priority`, description: 'Defaults to the type’s default priority.' }),
);

const deadline = Type.Optional(Deadline);

function submissionOf(definition: JobTypeDefinition): TSchema {
  return closed(
    {
      type: Type.Literal(definition.name),
      input: refTo(jobTypeComponentNames.input(definition)),
      priority,
      callbackUrl,
      deadline,
    },
    { description: definition.summary },
  );
}

/** One of the types' bodies (each an object). */
function oneOfRefs<T = unknown>(names: string[], description: string) {
  // A one-member anyOf is an illogical composition to OpenAPI linters; allOf of one keeps the description (and
  // ajv compiles it from its own object, where a bare $ref would resolve to the component).
  const [only] = names;
  if (names.length === 1 && only !== undefined) return Type.Unsafe<T>({ description, allOf: [refTo(only)] });
  return Type.Unsafe<T>({ description, anyOf: names.map((name) => refTo(name)) });
}

function perType(): Record<string, TSchema> {
  const components: Record<string, TSchema> = {};
  for (const definition of definitions) {
    components[jobTypeComponentNames.result(definition)] = definition.result;
    if (definition.proposal) components[jobTypeComponentNames.proposal(definition)] = definition.proposal;
    if (definition.reviewer.editable) components[definition.reviewer.editable.component] = definition.reviewer.editable.schema;
    if (definition.input.kind === 'json') {
      components[jobTypeComponentNames.input(definition)] = definition.input.schema;
      components[jobTypeComponentNames.submission(definition)] = submissionOf(definition);
    }
  }
  return components;
}

/**
 * The JSON body of `POST /jobs`: one alternative per JSON-input type, told apart by `type`, so a validator reports
 * the problems of the type that was sent.
 */
export const SubmitJobRequest = Type.Unsafe<{ type: string; input: unknown; priority?: (typeof PRIORITIES)[number]; callbackUrl?: string; deadline?: string }>({
  type: 'object',
  oneOf: jsonTypes.map((definition) => refTo(jobTypeComponentNames.submission(definition))),
  discriminator: { propertyName: 'type' },
});

export const JobResult = oneOfRefs<RegisteredResult>(definitions.map(jobTypeComponentNames.result), 'The job type’s result (`<Type>Result`).');
export const JobInput = oneOfRefs(jsonTypes.map(jobTypeComponentNames.input), 'The JSON input, for types that take one (`<Type>Input`).');
export const JobProposal = oneOfRefs(proposing.map(jobTypeComponentNames.proposal), 'What the model proposed while a person decides (`<Type>Proposal`).');
export const ReviewFields = oneOfRefs(
  editing.map((editable) => editable.component),
  'What a reviewer approves with: the result the job’s type declares editable (required then), absent for types approved as they are.',
);
export const FileJobType = stringEnum(FILE_JOB_TYPES, { description: 'The job types that take an uploaded file.' });

/** Every body the registered types bring, by component name. */
export const jobTypeComponents: Readonly<Record<string, TSchema>> = perType();
