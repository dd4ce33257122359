import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { conformanceProblems, routeOf, schemaProblems } from '../support/openapi-conformance';

const job = {
  jobId: 'invoice:demo:k1',
  type: 'invoice',
  status: 'processing',
  step: 'classifyDocument',
  detailed: true,
  links: { self: 'http://127.0.0.1:3000/jobs/invoice:demo:k1' },
};
const answer = (overrides: Partial<Parameters<typeof conformanceProblems>[0]>) =>
  conformanceProblems({ method: 'GET', path: '/jobs/invoice%3Ademo%3Ak1', status: 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify(job), ...overrides });

describe('OpenAPI conformance check (the helper every integration test goes through)', () => {
  test('when an answer matches its operation, then there is no problem', () => {
    assert.deepEqual(answer({}), []);
    assert.deepEqual(answer({ status: 404, body: JSON.stringify({ error: { code: 'not_found', message: 'job x was not found' } }) }), []);
  });

  test('when a path holds a job id, then it matches the templated route', () => {
    assert.equal(routeOf('/jobs/invoice%3Ademo%3Ak1/events'), '/jobs/{id}/events');
    assert.equal(routeOf('/review/session'), '/review/session');
    assert.equal(routeOf('/nowhere'), undefined);
  });

  test('when the body has a field the document does not list, or lacks a required one, then each is a problem', () => {
    assert.match(answer({ body: JSON.stringify({ ...job, surprise: 1 }) }).join('\n'), /additionalProperties|must NOT have additional properties/);
    const { detailed: _dropped, ...withoutDetailed } = job;
    assert.match(answer({ body: JSON.stringify(withoutDetailed) }).join('\n'), /detailed/);
    assert.match(answer({ body: JSON.stringify({ ...job, status: 'done' }) }).join('\n'), /status/);
  });

  test('when the status, the media type or the route is not documented, then that is the problem named', () => {
    assert.match(answer({ status: 418 }).join('\n'), /status 418 is not documented/);
    assert.match(answer({ contentType: 'text/html' }).join('\n'), /content type "text\/html"/);
    assert.match(answer({ method: 'PUT' }).join('\n'), /not in the OpenAPI document/);
    assert.match(answer({ path: '/secret-route' }).join('\n'), /not in the OpenAPI document/);
    assert.deepEqual(answer({ path: '/secret-route', status: 404, body: JSON.stringify({ error: { code: 'not_found', message: 'no such route' } }) }), []);
  });

  test('when an error body is not the documented shape, then it is a problem', () => {
    assert.notDeepEqual(answer({ status: 401, body: JSON.stringify({ message: 'no' }) }), []);
    assert.notDeepEqual(answer({ status: 401, body: 'Unauthorized' }), []);
  });

  test('when a value is checked against a component, then invalid values are reported', () => {
    assert.deepEqual(schemaProblems('JobEvent', { jobId: 'j', seq: 1, status: 'posted', at: '2026-12-02T10:00:00.000Z' }), []);
    assert.notDeepEqual(schemaProblems('JobEvent', { jobId: 'j', seq: 0, status: 'posted', at: 'yesterday' }), []);
  });
});
