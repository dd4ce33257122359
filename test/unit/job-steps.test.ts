import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { errorWithCurrentStep, isActivityStep, recordedNamesOf, stepNamed } from '../../common/job-steps';

describe('job steps and their recorded names', () => {
  test('when a job recorded a step under its former name, then it reads as the step named after its activity', () => {
    assert.equal(stepNamed('classify'), 'classifyDocument');
    assert.equal(stepNamed('extractFields'), 'extractInvoiceFields');
    assert.equal(stepNamed('postToLedger'), 'postInvoiceToLedger');
    assert.equal(stepNamed('review'), 'review');
  });

  test('when the recorded value is no step, then there is no step', () => {
    assert.equal(stepNamed('deliverWebhook'), undefined);
    assert.equal(stepNamed('toString'), undefined);
    assert.equal(stepNamed(null), undefined);
  });

  test('when a step is an activity, then its name is the activity type; review is not one', () => {
    assert.equal(isActivityStep('extractInvoiceFields'), true);
    assert.equal(isActivityStep('review'), false);
    assert.equal(isActivityStep('deliverWebhook'), false);
  });

  test('when a parked job memo holds a former step name, then its error reads with the current one and keeps the rest', () => {
    const recorded = {
      type: 'ModelRequestInvalid',
      message: '400',
      step: 'extractFields',
      retryable: false,
      attempts: 1,
    };
    assert.deepEqual(errorWithCurrentStep(recorded), { ...recorded, step: 'extractInvoiceFields' });
    assert.equal(errorWithCurrentStep(undefined), undefined);
  });

  test('when a visibility query looks for a step, then it asks for every name the step was recorded under', () => {
    assert.deepEqual(recordedNamesOf('postInvoiceToLedger'), ['postInvoiceToLedger', 'postToLedger']);
    assert.deepEqual(recordedNamesOf('extractText'), ['extractText']);
  });
});
