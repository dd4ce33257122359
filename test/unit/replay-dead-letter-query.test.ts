import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import type { JobStep } from '../../common/job';
import { deadLetterQuery, InvalidFilterError } from '../../ops/dead-letter-query';

const now = new Date('2026-12-02T12:00:00.000Z');

describe('deadLetterQuery', () => {
  test('when no filter is given, then it finds running jobs of every registered type parked as dead letters', () => {
    const query = deadLetterQuery({}, now);
    assert.match(query, /^WorkflowType IN \([^)]*'invoiceWorkflow'[^)]*\) AND ExecutionStatus = 'Running' AND JobStatus = 'dead_letter'$/);
    assert.match(query, /'orderScoreWorkflow'/);
  });

  test('when step, error type, tenant and ages are given, then each becomes a search-attribute clause', () => {
    const query = deadLetterQuery(
      { step: 'extractInvoiceFields', errorType: 'ModelRequestInvalidError', tenantId: 'acme', olderThanMs: 2 * 3_600_000, newerThanMs: 86_400_000 },
      now,
    );
    assert.match(query, / AND JobStep IN \('extractInvoiceFields', 'extractFields'\)/, 'jobs parked before the rename carry the former name');
    assert.match(query, / AND ErrorType IN \('ModelRequestInvalidError', 'ModelRequestInvalid'\)/);
    assert.match(query, / AND TenantId = 'acme'/);
    assert.match(query, / AND StatusSince <= '2026-12-02T10:00:00.000Z'/);
    assert.match(query, / AND StatusSince >= '2026-12-01T12:00:00.000Z'/);
  });

  test('when the step never had another name, then the clause matches that name alone', () => {
    assert.match(deadLetterQuery({ step: 'extractText' }, now), / AND JobStep = 'extractText'$/);
  });

  test('when the error type had another name before types became class names, then jobs parked under either match', () => {
    const expected = / AND ErrorType IN \('ModelAuthError', 'ModelAuthFailed'\)/;
    assert.match(deadLetterQuery({ errorType: 'ModelAuthError' }, now), expected);
    assert.match(deadLetterQuery({ errorType: 'ModelAuthFailed' }, now), expected);
  });

  test('when a value tries to break out of its quotes, then the filter is refused', () => {
    assert.throws(() => deadLetterQuery({ errorType: "x' OR JobStatus != 'dead_letter" }, now), InvalidFilterError);
    assert.throws(() => deadLetterQuery({ tenantId: "demo' OR '1'='1" }, now), InvalidFilterError);
    assert.throws(() => deadLetterQuery({ step: 'nope' as JobStep }, now), InvalidFilterError);
  });

  test('when an age reaches back before 1970 or beyond any date, then it means since ever; a non-number is refused', () => {
    assert.match(deadLetterQuery({ olderThanMs: 999_999_999 * 86_400_000 }, now), /StatusSince <= '1970-01-01T00:00:00\.000Z'/);
    assert.match(deadLetterQuery({ newerThanMs: 60 * 365 * 86_400_000 }, now), /StatusSince >= '1970-01-01T00:00:00\.000Z'/);
    assert.throws(() => deadLetterQuery({ newerThanMs: Number.NaN }, now), InvalidFilterError);
  });
});
