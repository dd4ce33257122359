import type { Static } from '@sinclair/typebox';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { type ApiComponentName, apiComponents } from '../common/api-contract/components';
import { ListAuditQuery } from '../common/api-contract/audit';
import { ListJobsQuery } from '../common/api-contract/job-list';
import { SocketClientMessage } from '../common/api-contract/job-socket';
import { COMPONENTS_PATH } from '../common/api-contract/schema-kit';
import { apiErrors } from './api-error';

/** The contract as one schema document, so `#/components/schemas/…` references resolve as in the OpenAPI document. */
const CONTRACT_ID = 'https://slowlane.dev/api-contract';
const QUERIES_PATH = '#/queries/';
const queries = { ListJobsQuery, ListAuditQuery };
const MESSAGES_PATH = '#/messages/';
/** What a WebSocket client sends (api/socket): not an HTTP body, so not a component. */
const messages = { SocketClientMessage };

/**
 * The one ajv instance of the API. OpenAPI 3.1 schemas are JSON Schema 2020-12; `discriminator` is OpenAPI's and
 * lets a oneOf report only the chosen alternative's problems. `strictRequired` is off because a oneOf's parent
 * lists no properties of its own.
 */
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, discriminator: true });
addFormats(ajv);
ajv.addKeyword('components').addKeyword('queries').addKeyword('messages');
ajv.addSchema({ $id: CONTRACT_ID, components: { schemas: apiComponents }, queries, messages });

type Components = typeof apiComponents;

/** The validator compiled from the contract's body of that name (its `schema` is that very object). */
export function validatorFor<K extends ApiComponentName>(name: K): ValidateFunction<Static<Components[K]>> {
  return compiled(`${CONTRACT_ID}${COMPONENTS_PATH}${name}`);
}

function compiled<T>(ref: string): ValidateFunction<T> {
  const validate = ajv.getSchema<T>(ref);
  if (!validate) throw new Error(`the API contract has no schema ${ref}`);
  return validate;
}

/** What the routes check requests with, compiled once at start so a broken schema fails the process, not a request. */
export const requestValidators = {
  submitJobForm: validatorFor('SubmitJobForm'),
  submitJobRequest: validatorFor('SubmitJobRequest'),
  reviewRequest: validatorFor('ReviewRequest'),
  replayRequest: validatorFor('ReplayRequest'),
  abandonRequest: validatorFor('AbandonRequest'),
  scheduleRequest: validatorFor('ScheduleRequest'),
  scheduleStateRequest: validatorFor('ScheduleStateRequest'),
  pushSubscriptionRequest: validatorFor('PushSubscriptionRequest'),
  listJobsQuery: compiled<Static<typeof ListJobsQuery>>(`${CONTRACT_ID}${QUERIES_PATH}ListJobsQuery`),
  listAuditQuery: compiled<Static<typeof ListAuditQuery>>(`${CONTRACT_ID}${QUERIES_PATH}ListAuditQuery`),
  socketClientMessage: compiled<Static<typeof SocketClientMessage>>(`${CONTRACT_ID}${MESSAGES_PATH}SocketClientMessage`),
};

export interface CheckOptions {
  /** Shown when the request is not an object at all: what a good one looks like. */
  example?: string;
  /** Problems the route leaves to a later, more specific answer (a review's fields are a 422, and only sometimes). */
  deferred?: (error: ErrorObject) => boolean;
}

/** The request as its schema types it, or a 400 `invalid_request` naming the field that failed and why. */
export function checkRequest<T>(validate: ValidateFunction<T>, value: unknown, options: CheckOptions = {}): T {
  if (validate(value)) return value;
  const problems = (validate.errors ?? []).filter((error) => !options.deferred?.(error));
  // Every remaining problem was deferred: the shape is right, the route's use case judges the rest.
  if (problems.length === 0) return value as T;
  // A whole-object rule (a oneOf) names no field: the first problem that does is the one to point at.
  const field = problems.map(fieldOf).find((name) => name !== undefined);
  throw apiErrors.invalidRequest(problems.map((error) => describe(error, validate, options)).join('; '), field ? { field } : undefined);
}

/** The top-level member a problem is about, as `details.field`. */
function fieldOf(error: ErrorObject): string | undefined {
  const [, top] = error.instancePath.split('/');
  if (top) return decodeURIComponent(top.replaceAll('~1', '/').replaceAll('~0', '~'));
  const params = error.params as { missingProperty?: string; additionalProperty?: string; tag?: string };
  return params.missingProperty ?? params.additionalProperty ?? params.tag;
}

function describe(error: ErrorObject, validate: ValidateFunction, options: CheckOptions): string {
  const at = error.instancePath === '' ? undefined : `"${error.instancePath.slice(1)}"`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      if (!at) return `send a JSON object${options.example ? `: ${options.example}` : ''}`;
      break;
    case 'required':
      return `"${String(params.missingProperty)}" is required${at ? ` in ${at}` : ''}`;
    case 'additionalProperties':
      return `unknown field "${String(params.additionalProperty)}"${at ? ` in ${at}` : ''}`;
    case 'discriminator':
      return `"${String(params.tag)}" must be one of ${discriminatorValues(validate.schema, String(params.tag)).join(', ')}`;
    case 'enum':
      return `${at ?? 'the value'} must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'pattern':
      // The only pattern in the request bodies asks for something that is not white space.
      if (params.pattern === '\\S') return `${at ?? 'the value'} must not be blank`;
      break;
  }
  return `${at ?? 'the body'} ${error.message ?? 'is invalid'}`;
}

/** The values a discriminated oneOf accepts, read from its alternatives' `const`s. */
function discriminatorValues(schema: unknown, tag: string): string[] {
  const alternatives = ((schema as { oneOf?: Array<{ $ref?: string }> }).oneOf ?? []).map((alternative) =>
    alternative.$ref?.startsWith(COMPONENTS_PATH) ? apiComponents[alternative.$ref.slice(COMPONENTS_PATH.length) as ApiComponentName] : alternative,
  );
  return alternatives.map((alternative) => String((alternative as { properties?: Record<string, { const?: unknown }> }).properties?.[tag]?.const));
}
