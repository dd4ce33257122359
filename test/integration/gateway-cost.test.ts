import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { describe, test } from '@jest/globals';
import { localTestConfig } from '../support/test-credentials';
import { costOf } from '../../gateway/pricing';
import { submit, waitForJob } from '../support/api-client';
import { markedInvoiceText } from '../support/gateway-calls';
import { testEnv } from '../support/test-env';

interface SimCall {
  status: number;
  model: string | null;
  inputTokens: number;
  outputTokens: number;
}

describe('cost per job through the real stack', () => {
  test('when a job is done, then its tokens and cost are the sums of what the provider billed for its calls', async () => {
    const simulatorUrl = testEnv().simulatorUrl;
    assert.ok(simulatorUrl, 'needs the stack that `npm test` starts');
    const marker = `COST-${randomUUID()}`;
    const submitted = await submit(new TextEncoder().encode(markedInvoiceText(marker)), { fileName: 'invoice.txt' });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const done = await waitForJob(submitted.body.jobId as string, ['posted', 'awaiting_review', 'rejected', 'failed']);

    const response = await fetch(`${simulatorUrl}/_sim/calls?textIncludes=${encodeURIComponent(marker)}`);
    const billed = ((await response.json()) as { calls: SimCall[] }).calls.filter((call) => call.status === 200);
    assert.ok(billed.length >= 2, 'classification and extraction were billed');
    // The stack runs with the default price table, as this test reads it.
    const prices = localTestConfig().anthropic.prices;
    const expected = billed.reduce(
      (sum, call) => ({
        inputTokens: sum.inputTokens + call.inputTokens,
        outputTokens: sum.outputTokens + call.outputTokens,
        costUsd: sum.costUsd + costOf(call, prices[call.model ?? '']),
        calls: sum.calls + 1,
      }),
      { inputTokens: 0, outputTokens: 0, costUsd: 0, calls: 0 },
    );
    assert.ok(expected.costUsd > 0, 'the models the stack uses have prices');
    const usage = done.usage;
    assert.ok(usage, JSON.stringify(done));
    assert.equal(usage.inputTokens, expected.inputTokens);
    assert.equal(usage.outputTokens, expected.outputTokens);
    assert.equal(usage.calls, expected.calls);
    // Summed in the same order from the same per-call prices; only float rounding may differ.
    assert.ok(Math.abs(usage.costUsd - expected.costUsd) < 1e-12, `${usage.costUsd} vs ${expected.costUsd}`);
  });
});
