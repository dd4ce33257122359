import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import type { WorkflowExecutionDescription } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { encodeErrorToFailure, loadDataConverter } from '@temporalio/common/lib/internal-non-workflow';
import { currentAttemptOf, decodePendingFailures } from '../../api/current-attempt';
import { dataConverterFor } from '../../lib/payload-codec/data-converter';
import { isEncrypted } from '../../lib/payload-codec/encryption-codec';
import { testCodecSettings } from '../support/test-codec';

type Raw = WorkflowExecutionDescription['raw'];
const described = (pendingActivities: unknown[]): Pick<WorkflowExecutionDescription, 'raw'> => ({
  raw: { pendingActivities } as unknown as Raw,
});

describe('the step in flight, from the server', () => {
  test('when an activity waits for its next attempt, then its step, attempt, failure and next try are named', () => {
    const next = Date.parse('2026-12-02T10:00:05.250Z');
    const attempt = currentAttemptOf(
      described([
        {
          activityType: { name: 'classifyDocument' },
          attempt: 3,
          lastFailure: { message: 'provider answered 429', applicationFailureInfo: { type: 'ModelRateLimitedError' } },
          nextAttemptScheduleTime: { seconds: Math.floor(next / 1000), nanos: 250_000_000 },
        },
      ]),
    );
    assert.deepEqual(attempt, {
      step: 'classifyDocument',
      attempt: 3,
      lastFailure: { type: 'ModelRateLimitedError', message: 'provider answered 429' },
      nextAttemptAt: '2026-12-02T10:00:05.250Z',
    });
  });

  test('when the first attempt is running, then only the step and attempt 1 are given', () => {
    assert.deepEqual(currentAttemptOf(described([{ activityType: { name: 'extractInvoiceFields' }, attempt: 1 }])), {
      step: 'extractInvoiceFields',
      attempt: 1,
    });
  });

  test('when the last attempt timed out, then the failure type says Timeout', () => {
    const attempt = currentAttemptOf(
      described([{ activityType: { name: 'extractText' }, attempt: 2, lastFailure: { message: 'heartbeat', timeoutFailureInfo: {} } }]),
    );
    assert.deepEqual(attempt?.lastFailure, { type: 'Timeout', message: 'heartbeat' });
  });

  test('when nothing or only an unknown activity is pending, then there is no current attempt', () => {
    assert.equal(currentAttemptOf(described([])), undefined);
    assert.equal(currentAttemptOf({ raw: {} as Raw }), undefined);
    assert.equal(currentAttemptOf(described([{ activityType: { name: 'somethingElse' }, attempt: 4 }])), undefined);
  });

  test('when the last failure is stored encrypted, then the job still names its message, and the server copy does not', async () => {
    const converter = loadDataConverter(dataConverterFor(testCodecSettings()));
    const failure = await encodeErrorToFailure(
      converter,
      ApplicationFailure.create({ message: 'provider answered 429 for INV-991', type: 'ModelRateLimitedError' }),
    );
    assert.ok(!failure.message?.includes('INV-991'), 'the stored failure hides its message');
    assert.ok(failure.encodedAttributes && isEncrypted(failure.encodedAttributes), 'the message is in the encrypted attributes');
    const description = described([{ activityType: { name: 'classifyDocument' }, attempt: 2, lastFailure: failure }]);
    await decodePendingFailures(description, converter);
    assert.deepEqual(currentAttemptOf(description)?.lastFailure, {
      type: 'ModelRateLimitedError',
      message: 'provider answered 429 for INV-991',
    });
  });
});
