import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { providerReadings } from '../../gateway/provider-headers';
import { InputTokenEstimator } from '../../gateway/token-estimate';

describe('what the provider tells the gateway', () => {
  test('when rate-limit headers come back, then each bucket’s limit and remaining are read, the rounded combined group left out', () => {
    const headers = new Headers({
      'anthropic-ratelimit-input-tokens-limit': '80000',
      'anthropic-ratelimit-input-tokens-remaining': '79200',
      'anthropic-ratelimit-output-tokens-limit': '16000',
      'anthropic-ratelimit-output-tokens-remaining': '15990',
      'anthropic-ratelimit-requests-limit': '1000',
      'anthropic-ratelimit-requests-remaining': '999',
      'anthropic-ratelimit-tokens-remaining': '95000',
    });
    assert.deepEqual(providerReadings(headers), {
      input: { limit: 80_000, remaining: 79_200 },
      output: { limit: 16_000, remaining: 15_990 },
      requests: { limit: 1_000, remaining: 999 },
    });
  });

  test('when headers are missing or garbled, then nothing is read from them', () => {
    assert.deepEqual(providerReadings(undefined), {});
    assert.deepEqual(providerReadings(new Headers({ 'anthropic-ratelimit-input-tokens-remaining': 'lots' })), {});
  });
});

describe('input token estimate', () => {
  test('when nothing has been observed, then the estimate errs high for English text', () => {
    const estimator = new InputTokenEstimator();
    assert.ok(estimator.estimate('m', 4_000) > 4_000 / 4);
  });

  test('when answers report real usage, then the estimate converges on the model’s characters per token', () => {
    const estimator = new InputTokenEstimator();
    for (let call = 0; call < 30; call++) estimator.learn('m', 4_000, 800);
    assert.equal(estimator.estimate('m', 10_000), 2_000);
    assert.ok(estimator.estimate('other-model', 10_000) > 2_000, 'calibration is per model');
  });
});
