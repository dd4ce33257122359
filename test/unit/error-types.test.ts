import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { ApplicationFailure } from '@temporalio/common';
import * as errors from '../../common/errors';
import { toApplicationFailure } from '../../lib/failures';

const { ERROR_CLASSES, NON_RETRYABLE_ERROR_TYPES, SlowlaneError, currentErrorType, errorTypeAliases } = errors;

describe('error types', () => {
  test('when any error class is thrown from an activity, then its failure type is its class name', () => {
    for (const ErrorClass of ERROR_CLASSES) {
      const failure = toApplicationFailure(new ErrorClass('x'), 1);
      assert.ok(failure instanceof ApplicationFailure);
      assert.equal(failure.type, ErrorClass.name);
    }
    assert.equal(new errors.ModelAuthError('key refused').name, 'ModelAuthError');
  });

  test('when the module exports an error class, then it is registered, so its retry semantics reach the retry policies', () => {
    const exported = Object.values(errors).filter(
      (value): value is typeof SlowlaneError => typeof value === 'function' && value.prototype instanceof SlowlaneError,
    );
    assert.deepEqual(new Set(exported), new Set(ERROR_CLASSES));
  });

  test('when an error class is registered, then it says itself whether a retry can help, not by inheriting', () => {
    for (const ErrorClass of ERROR_CLASSES) {
      assert.ok(Object.hasOwn(ErrorClass, 'retryable'), `${ErrorClass.name} declares static retryable`);
      assert.equal(typeof ErrorClass.retryable, 'boolean', ErrorClass.name);
    }
  });

  test('when the non-retryable list is derived, then it holds exactly the classes a retry cannot help', () => {
    assert.ok(NON_RETRYABLE_ERROR_TYPES.includes('ModelAuthError'));
    assert.ok(NON_RETRYABLE_ERROR_TYPES.includes('WebhookRejectedError'));
    assert.ok(NON_RETRYABLE_ERROR_TYPES.includes('InvalidDocumentError'));
    assert.ok(!NON_RETRYABLE_ERROR_TYPES.includes('ModelUnavailableError'));
    assert.ok(!NON_RETRYABLE_ERROR_TYPES.includes('TokenBudgetExhaustedError'));
    for (const ErrorClass of ERROR_CLASSES) {
      const error = new ErrorClass('x');
      assert.equal(NON_RETRYABLE_ERROR_TYPES.includes(error.name), !error.retryable, error.name);
    }
  });

  test('when a type recorded before the rename is read, then it maps to a class name, and a current or unknown one stays', () => {
    const names = new Set<string>(ERROR_CLASSES.map((ErrorClass) => ErrorClass.name));
    for (const legacy of ['InvalidDocument', 'ModelAuthFailed', 'TokenBudgetExhausted', 'WebhookRejected']) {
      assert.ok(names.has(currentErrorType(legacy)), `${legacy} → ${currentErrorType(legacy)}`);
    }
    assert.equal(currentErrorType('ModelAuthFailed'), 'ModelAuthError');
    assert.equal(currentErrorType('ModelAuthError'), 'ModelAuthError');
    assert.equal(currentErrorType('Timeout'), 'Timeout');
    assert.equal(currentErrorType('constructor'), 'constructor');
  });

  test('when a search names a type, then its aliases cover the old name too', () => {
    assert.deepEqual(errorTypeAliases('ModelAuthError'), ['ModelAuthError', 'ModelAuthFailed']);
    assert.deepEqual(errorTypeAliases('ModelAuthFailed'), ['ModelAuthError', 'ModelAuthFailed']);
    assert.deepEqual(errorTypeAliases('NotAnInvoice'), ['NotAnInvoice']);
  });
});
