import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { openApiDocument } from '../../api/openapi/document';
import { requestValidators, validatorFor } from '../../api/request-validation';
import { apiComponents } from '../../common/api-contract/components';
import { FILE_JOB_TYPES, JSON_JOB_TYPES, jobTypeComponentNames } from '../../common/api-contract/job-types';
import { JobStep, JobType } from '../../common/api-contract/vocabulary';
import type { JobTypeDefinition } from '../../common/job-types/job-type';
import { decisionOf } from '../../common/job-types/order-score/order-score';
import { componentPrefixOf, isJobType, JOB_TYPE_DEFINITIONS, jobTypeNamed, jobTypeOfWorkflow } from '../../common/job-types/registry';
import * as workflows from '../../workflows';

const components = apiComponents as Record<string, unknown>;

describe('the job-type registry', () => {
  test('when a type is looked up by name or by workflow type, then its definition answers, and nothing else does', () => {
    for (const definition of JOB_TYPE_DEFINITIONS) {
      assert.equal(jobTypeNamed(definition.name), definition);
      assert.equal(jobTypeOfWorkflow(definition.workflowType), definition);
      assert.ok(isJobType(definition.name));
    }
    assert.equal(jobTypeNamed('pizza'), undefined);
    assert.equal(jobTypeOfWorkflow('deliverWebhookWorkflow'), undefined, 'webhook deliveries are no job');
    assert.ok(!isJobType('invoice:demo'));
  });

  test('when the registry is read, then names and workflow types are unique, names fit a job id, and each workflow is exported', () => {
    const names = JOB_TYPE_DEFINITIONS.map((definition) => definition.name);
    assert.equal(new Set(names).size, names.length);
    assert.equal(new Set(JOB_TYPE_DEFINITIONS.map((definition) => definition.workflowType)).size, names.length);
    for (const definition of JOB_TYPE_DEFINITIONS) {
      assert.match(definition.name, /^[a-z][a-z0-9.]*$/, 'no colon: the job id is <type>:<tenant>:<key>');
      assert.equal(typeof (workflows as Record<string, unknown>)[definition.workflowType], 'function', `${definition.workflowType} is in the bundle`);
      assert.ok(definition.priorities.includes(definition.defaultPriority));
    }
  });

  test('when the vocabulary is built, then it lists every registered type and every type’s steps', () => {
    assert.deepEqual([...(JobType.enum as string[])].sort(), JOB_TYPE_DEFINITIONS.map((definition) => definition.name).sort());
    for (const step of JOB_TYPE_DEFINITIONS.flatMap((definition) => definition.steps)) assert.ok((JobStep.enum as string[]).includes(step), step);
    assert.deepEqual([...FILE_JOB_TYPES, ...JSON_JOB_TYPES].sort(), [...(JobType.enum as string[])].sort());
  });

  test('when a score lands in the band or the model disagrees with itself, then a person decides', () => {
    const band = { approveBelow: 0.3, declineFrom: 0.7 };
    assert.equal(decisionOf({ score: 0.1, decision: 'approve', reasons: ['x'] }, band), 'approve');
    assert.equal(decisionOf({ score: 0.7, decision: 'decline', reasons: ['x'] }, band), 'decline');
    assert.equal(decisionOf({ score: 0.5, decision: 'approve', reasons: ['x'] }, band), 'review');
    assert.equal(decisionOf({ score: 0.1, decision: 'decline', reasons: ['x'] }, band), 'review');
    assert.equal(decisionOf({ score: 0.1, decision: 'review', reasons: ['x'] }, band), 'review');
  });
});

describe('the contract derived from the definitions', () => {
  const document = openApiDocument({ serverUrl: 'http://127.0.0.1' }) as { components: { schemas: Record<string, unknown> } };

  test('when the document is built, then each type’s result, input and proposal are components, the definition’s own schema objects', () => {
    assert.equal(componentPrefixOf('order.score'), 'OrderScore');
    for (const definition of JOB_TYPE_DEFINITIONS as readonly JobTypeDefinition[]) {
      assert.equal(document.components.schemas[jobTypeComponentNames.result(definition)], definition.result);
      if (definition.proposal) assert.equal(components[jobTypeComponentNames.proposal(definition)], definition.proposal);
      if (definition.input.kind === 'json') {
        assert.equal(components[jobTypeComponentNames.input(definition)], definition.input.schema);
        assert.ok(components[jobTypeComponentNames.submission(definition)], 'a JSON type has its POST /jobs body');
      }
    }
  });

  test('when a JSON body is validated, then it is checked against the named type’s input schema, and file types are refused', () => {
    const validate = requestValidators.submitJobRequest;
    const order = {
      order: { id: 'o', totalAmount: 1, currency: 'EUR', itemCount: 1 },
      customer: { id: 'c', accountAgeDays: 1, previousOrders: 0, previousChargebacks: 0 },
      payment: { method: 'card', billingCountry: 'DE' },
      shipping: { country: 'DE', expedited: false },
    };
    assert.ok(validate({ type: 'order.score', input: order }), JSON.stringify(validate.errors));
    assert.ok(!validate({ type: 'order.score', input: { ...order, shipping: { country: 'Germany', expedited: false } } }));
    assert.ok(!validate({ type: 'invoice', input: order }), 'a file type takes no JSON body');
    assert.ok(!validate({ type: 'order.score', input: order, extra: 1 }));
  });

  test('when a job’s result is checked, then either type’s result passes and a mix of both fails', () => {
    const validate = validatorFor('JobResult');
    assert.ok(validate({ score: 0.2, decision: 'approve', reasons: [], decidedBy: 'model' }), JSON.stringify(validate.errors));
    assert.ok(!validate({ score: 0.2, decision: 'maybe', reasons: [], decidedBy: 'model' }));
  });
});
