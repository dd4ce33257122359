import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { type SlowlaneError, TenantSpendCapReachedError } from '../../common/errors';
import { InProcessSpendStore } from '../../gateway/spend/local-spend-store';
import { withSpendCaps } from '../../gateway/spend/spend-capped-gateway';
import { withAsyncSpeechSpendCaps, withSpeechSpendCaps } from '../../gateway/spend/spend-capped-speech';
import { createTenantSpend, type SpendEvent } from '../../gateway/spend/tenant-spend';
import type { AsyncSpeechGateway, SpeechGateway, TranscribeRequest, TranscribeResult } from '../../gateway/speech/transcription-call';
import { modelProvider, toolRequest } from '../support/spend-fakes';

const NOW = Date.UTC(2026, 11, 4, 12);
const DAY = '2026-12-04';
/** A cent a second: a minute of audio costs 0.6 USD. */
const PRICE_PER_MINUTE = 0.6;
const CALLBACK = { url: 'http://api.invalid/callbacks/speech/x', authHeaderName: 'x-slowlane-callback', authHeaderValue: 'secret' };

/** The shared admit/settle over a real in-process store, with its events kept. */
function tenantSpend(caps: Record<string, { dailyUsd?: number; monthlyUsd?: number }>) {
  const events: SpendEvent[] = [];
  const store = new InProcessSpendStore(() => NOW);
  const spend = createTenantSpend({ store, caps, onEvent: (event) => events.push(event) });
  return { spend, store, events, spentToday: async (tenantId: string) => (await store.totalsOn(tenantId, DAY)).day };
}

/** A speech provider that bills `billedSeconds` a chunk (its own reading of the audio) and counts what reached it. */
function speechProvider(billedSeconds: number): SpeechGateway & AsyncSpeechGateway & { calls: number } {
  const fake = {
    calls: 0,
    async transcribe(request: TranscribeRequest): Promise<TranscribeResult> {
      fake.calls += 1;
      return {
        text: 'hello',
        segments: [{ start: 0, end: request.durationSeconds, text: 'hello' }],
        durationSeconds: request.durationSeconds,
        model: 'whisper-1',
        usage: { audioSeconds: billedSeconds, costUsd: (billedSeconds / 60) * PRICE_PER_MINUTE },
      };
    },
    async submit(): Promise<{ transcriptId: string }> {
      fake.calls += 1;
      return { transcriptId: `t-${fake.calls}` };
    },
    async fetch() {
      return { status: 'pending' as const };
    },
  };
  return fake;
}

const chunk = (durationSeconds: number, tenantId?: string): TranscribeRequest => ({
  jobId: 'call.transcribe:demo:k',
  ...(tenantId ? { tenantId } : {}),
  priority: 'bulk',
  audio: new Uint8Array([1, 2, 3]),
  filename: 'chunk-0001.flac',
  durationSeconds,
});

describe('transcription behind the tenant’s spend caps', () => {
  test('when a chunk would pass the cap, then it is refused before the provider with the model steps’ typed error, saying when the window turns', async () => {
    const { spend } = tenantSpend({ demo: { dailyUsd: 1 } });
    const provider = speechProvider(60);
    const speech = withSpeechSpendCaps(provider, { spend, pricePerMinute: PRICE_PER_MINUTE });
    await speech.transcribe(chunk(60, 'demo')); // 0.6 of 1 USD
    const refusal = (await speech.transcribe(chunk(60, 'demo')).catch((error: unknown) => error)) as SlowlaneError;
    assert.ok(refusal instanceof TenantSpendCapReachedError, String(refusal));
    assert.equal(refusal.retryable, false);
    assert.deepEqual(refusal.details?.spendCap, { window: 'day', capUsd: 1, spentUsd: 0.6, resumesAt: '2026-12-05T00:00:00.000Z' });
    assert.equal(provider.calls, 1, 'the refused chunk never went out');
  });

  test('when the provider bills fewer seconds than the chunk was held for, then the tenant’s total is the billed seconds’ price, and the next chunk is admitted against that', async () => {
    const { spend, spentToday } = tenantSpend({ demo: { dailyUsd: 1 } });
    // Held at 60 s (0.6 USD), billed 30 s (0.3 USD).
    const provider = speechProvider(30);
    const speech = withSpeechSpendCaps(provider, { spend, pricePerMinute: PRICE_PER_MINUTE });
    const first = await speech.transcribe(chunk(60, 'demo'));
    assert.equal(first.usage.costUsd, 0.3);
    assert.ok(Math.abs((await spentToday('demo')) - 0.3) < 1e-12, `spent ${await spentToday('demo')}`);
    // 0.3 spent + 0.6 at most fits 1 USD only because the first was settled to its billed 30 s, not its 60 s hold.
    await speech.transcribe(chunk(60, 'demo'));
    assert.ok(Math.abs((await spentToday('demo')) - 0.6) < 1e-12, `spent ${await spentToday('demo')}`);
    assert.equal(provider.calls, 2);
  });

  test('when a chunk’s duration has a fraction of a second, then it is held at the seconds rounded up, as the provider bills', async () => {
    const { spend } = tenantSpend({ demo: { dailyUsd: 1.005 } });
    const speech = withSpeechSpendCaps(speechProvider(40), { spend, pricePerMinute: PRICE_PER_MINUTE });
    await speech.transcribe(chunk(40, 'demo')); // 0.4 spent, 0.605 left
    // 60.2 s at its exact length (0.602) would fit; held as the 61 s it is billed (0.61), it does not. 60 s does.
    const refusal = await speech.transcribe(chunk(60.2, 'demo')).catch((error: unknown) => error);
    assert.ok(refusal instanceof TenantSpendCapReachedError, String(refusal));
    await speech.transcribe(chunk(60, 'demo'));
  });

  test('when model calls have spent the tenant’s cap, then its transcription waits too: one store, one cap for every door', async () => {
    const { spend } = tenantSpend({ demo: { dailyUsd: 1 } });
    const model = withSpendCaps(modelProvider(1), { spend, prices: { 'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 } } });
    const provider = speechProvider(10);
    const speech = withSpeechSpendCaps(provider, { spend, pricePerMinute: PRICE_PER_MINUTE });
    await model.callTool(toolRequest('demo'));
    const refusal = await speech.transcribe(chunk(10, 'demo')).catch((error: unknown) => error);
    assert.ok(refusal instanceof TenantSpendCapReachedError, String(refusal));
    assert.equal(provider.calls, 0);
    await speech.transcribe(chunk(10, 'other'));
    assert.equal(provider.calls, 1, 'another tenant is not held back by demo’s spend');
  });

  test('when a chunk names no tenant, then it goes out uncounted', async () => {
    const { spend, events } = tenantSpend({ demo: { dailyUsd: 0.01 } });
    const provider = speechProvider(60);
    const speech = withSpeechSpendCaps(provider, { spend, pricePerMinute: PRICE_PER_MINUTE });
    await speech.transcribe(chunk(60));
    await speech.transcribe(chunk(60));
    assert.equal(provider.calls, 2);
    assert.deepEqual(events, []);
  });
});

describe('asynchronous transcription behind the tenant’s spend caps', () => {
  test('when a chunk is submitted, then its seconds rounded up are counted; when the next would pass the cap, it is refused before the upload', async () => {
    const { spend, spentToday } = tenantSpend({ demo: { dailyUsd: 1 } });
    const provider = speechProvider(0);
    const speech = withAsyncSpeechSpendCaps(provider, { spend, pricePerMinute: PRICE_PER_MINUTE });
    assert.deepEqual(await speech.submit(chunk(59.5, 'demo'), CALLBACK), { transcriptId: 't-1' });
    assert.ok(Math.abs((await spentToday('demo')) - 0.6) < 1e-12, `spent ${await spentToday('demo')}`);
    const refusal = await speech.submit(chunk(60, 'demo'), CALLBACK).catch((error: unknown) => error);
    assert.ok(refusal instanceof TenantSpendCapReachedError, String(refusal));
    assert.equal(provider.calls, 1, 'the refused chunk was never uploaded');
    // A poll sends no audio: not counted, not refused.
    assert.deepEqual(await speech.fetch('t-1', { jobId: 'call.transcribe:demo:k' }), { status: 'pending' });
  });

  test('when a submission names no tenant, then it goes out uncounted', async () => {
    const { spend, events } = tenantSpend({ demo: { dailyUsd: 0.01 } });
    const provider = speechProvider(0);
    const speech = withAsyncSpeechSpendCaps(provider, { spend, pricePerMinute: PRICE_PER_MINUTE });
    await speech.submit(chunk(60), CALLBACK);
    await speech.submit(chunk(60), CALLBACK);
    assert.equal(provider.calls, 2);
    assert.deepEqual(events, []);
  });
});
