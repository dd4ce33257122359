import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { openApiDocument } from '../../api/openapi/document';
import { requestValidators, validatorFor } from '../../api/request-validation';
import { DeadLetterList, ReplayOutcome, ReplayRequest } from '../../common/api-contract/admin';
import { apiComponents, type ApiComponentName } from '../../common/api-contract/components';
import { ErrorBody } from '../../common/api-contract/error-body';
import { JobErasure } from '../../common/api-contract/erasure';
import { Job } from '../../common/api-contract/job';
import { JobStreamEvent } from '../../common/api-contract/job-event';
import { JobList, ListJobsQuery } from '../../common/api-contract/job-list';
import { REVIEW_OUTCOMES, ReviewDecision } from '../../common/api-contract/job-parts';
import { Health, ReviewSession } from '../../common/api-contract/meta';
import { ReviewRequest } from '../../common/api-contract/review-request';
import { COMPONENTS_PATH } from '../../common/api-contract/schema-kit';
import { SubmitJobForm, Submission } from '../../common/api-contract/submission';
import { JobStatus, JobStep, JobType, Priority } from '../../common/api-contract/vocabulary';
import { WEBHOOK_EVENT_TYPES, WebhookEvent } from '../../common/api-contract/webhook-event';
import { JOB_STATUSES, JOB_STEPS, JOB_TYPES } from '../../common/job';
import { PRIORITIES } from '../../common/task-queues';

type Node = Record<string, unknown>;
const document = openApiDocument({ serverUrl: 'http://127.0.0.1' }) as {
  paths: Record<string, Record<string, Node>>;
  webhooks: Record<string, Record<string, Node>>;
  components: { schemas: Record<string, unknown> };
};

/** The object a `$ref` in the document points at, found the way an OpenAPI reader finds it. */
function resolve(schema: unknown): unknown {
  const ref = (schema as { $ref?: string }).$ref;
  assert.ok(ref !== undefined && ref.startsWith(COMPONENTS_PATH), `expected a reference to a component, got ${JSON.stringify(schema)}`);
  return document.components.schemas[ref.slice(COMPONENTS_PATH.length)];
}

const operation = (method: string, path: string): Node => {
  const found = document.paths[path]?.[method];
  assert.ok(found, `${method.toUpperCase()} ${path} is in the document`);
  return found;
};
const requestSchema = (op: Node, mediaType = 'application/json') =>
  ((op.requestBody as Node).content as Record<string, { schema: unknown }>)[mediaType]?.schema;
const responseSchema = (op: Node, status: string) =>
  (((op.responses as Record<string, Node>)[status] as Node).content as Record<string, { schema: unknown }>)['application/json']?.schema;

describe('the API contract: one schema object per body, in the document, the validators and the types', () => {
  test('when the document is built, then its components are the contract registry itself, not copies', () => {
    for (const [name, schema] of Object.entries(apiComponents)) assert.equal(document.components.schemas[name], schema, name);
    assert.equal(document.components.schemas, apiComponents);
  });

  test('when a route takes a body, then the document shows the very object the route validates with', () => {
    const review = resolve(requestSchema(operation('post', '/jobs/{id}/review')));
    assert.equal(review, ReviewRequest);
    assert.equal(requestValidators.reviewRequest.schema, review);

    const form = resolve(requestSchema(operation('post', '/jobs'), 'multipart/form-data'));
    assert.equal(form, SubmitJobForm);
    assert.equal(requestValidators.submitJobForm.schema, form);

    const replay = resolve(requestSchema(operation('post', '/admin/jobs/{id}/replay')));
    assert.equal(replay, ReplayRequest);
    assert.equal(requestValidators.replayRequest.schema, replay);
  });

  test('when GET /jobs documents its query, then each parameter schema is the member the route validates', () => {
    assert.equal(requestValidators.listJobsQuery.schema, ListJobsQuery);
    const parameters = operation('get', '/jobs').parameters as Array<{ name: string; in: string; schema: unknown }>;
    assert.deepEqual(
      parameters.map((parameter) => parameter.name),
      Object.keys(ListJobsQuery.properties),
    );
    for (const parameter of parameters) {
      assert.equal(parameter.in, 'query');
      assert.equal(parameter.schema, ListJobsQuery.properties[parameter.name as keyof typeof ListJobsQuery.properties], parameter.name);
    }
  });

  test('when an operation answers a body, then it is the contract schema its route is typed with', () => {
    const answers: Array<[method: string, path: string, status: string, schema: unknown]> = [
      ['post', '/jobs', '202', Submission],
      ['get', '/jobs', '200', JobList],
      ['get', '/jobs/{id}', '200', Job],
      ['delete', '/jobs/{id}', '200', JobErasure],
      ['post', '/jobs/{id}/review', '200', Job],
      ['post', '/jobs/{id}/review', '422', ErrorBody],
      ['get', '/review/session', '200', ReviewSession],
      ['get', '/healthz', '200', Health],
      ['get', '/readyz', '503', Health],
      ['get', '/admin/dead-letters', '200', DeadLetterList],
      ['post', '/admin/jobs/{id}/replay', '200', ReplayOutcome],
      ['post', '/admin/jobs/{id}/replay', '409', ErrorBody],
    ];
    for (const [method, path, status, schema] of answers) {
      assert.equal(resolve(responseSchema(operation(method, path), status)), schema, `${method.toUpperCase()} ${path} ${status}`);
    }
    const events = (operation('get', '/jobs/{id}/events').responses as Record<string, Node>)['200'] as Node;
    const stream = (events.content as Record<string, { schema: unknown }>)['text/event-stream'];
    assert.equal(resolve(stream?.schema), JobStreamEvent);
    const webhook = document.webhooks.jobEvent?.post as Node;
    assert.equal(resolve(requestSchema(webhook)), WebhookEvent);
  });

  test('when every body is compiled by the shared validator, then each compiles from its own object and every reference resolves', () => {
    for (const name of Object.keys(apiComponents) as ApiComponentName[]) {
      assert.equal(validatorFor(name).schema, apiComponents[name], name);
    }
  });

  test('when a union is listed in a schema, then it is the very as-const array the TypeScript type comes from', () => {
    assert.equal(JobStatus.enum, JOB_STATUSES);
    assert.equal(JobStep.enum, JOB_STEPS);
    assert.equal(JobType.enum, JOB_TYPES);
    assert.equal(Priority.enum, PRIORITIES);
    assert.equal(ReviewDecision.properties.decision.enum, REVIEW_OUTCOMES);
    assert.equal(WebhookEvent.properties.type.enum, WEBHOOK_EVENT_TYPES);
  });
});
