import assert from '../support/assert';
import { afterAll, afterEach, beforeAll, beforeEach, describe, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SlowlaneError } from '../../common/errors';
import { gatewayFromConfig, type WiredGateway } from '../../gateway/gateway-from-config';
import type { TranscribeRequest } from '../../gateway/speech/transcription-call';
import { createLogger } from '../../lib/logger';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import type { TranscriptionStats } from '../../local/simulator/transcriptions/transcription-stats';
import { RedisConcurrencyLimit } from '../../gateway/budget/redis-concurrency-limit';
import { startLocalRedis, type LocalRedis } from '../../local/stack/redis-server';
import { type CallFile, spokenCall } from '../support/spoken-calls';
import { localTestConfig } from '../support/test-credentials';

const LOG = createLogger('gateway-speech-shared-test', 'silent');

describe('the speech budget shared through Redis', () => {
  let dir: string;
  let call: CallFile;
  let redis: LocalRedis;
  let simulator: RunningSimulator;
  let workers: WiredGateway[] = [];
  let run = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gateway-speech-shared-'));
    call = await spokenCall(dir, 'call.wav', true);
    redis = await startLocalRedis({ appendOnly: false });
  }, 60_000);
  afterAll(async () => {
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    simulator = await startSimulator({ port: 0, audioLatencyBaseMs: 0, audioLatencyPerMinuteMs: 0 });
    run += 1;
  });
  afterEach(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    workers = [];
    await simulator.close();
  });

  /** Two worker processes' gateways: separate clients and connections, one Redis, one key prefix. */
  const twoWorkers = (env: Record<string, string>) => {
    const config = localTestConfig({
      SPEECH_BASE_URL: simulator.url,
      REDIS_URL: redis.url,
      GATEWAY_REDIS_PREFIX: `speech-shared-${process.pid}-${run}`,
      GATEWAY_INTERACTIVE_SHARE: '0',
      ...env,
    });
    workers = [gatewayFromConfig(config, LOG), gatewayFromConfig(config, LOG)];
    return workers.map((worker) => worker.speech);
  };
  const request = (jobId: string): TranscribeRequest => ({
    jobId,
    priority: 'bulk',
    audio: call.bytes,
    filename: 'call.wav',
    durationSeconds: call.durationSeconds,
  });
  const stats = async () => (await (await fetch(`${simulator.url}/_sim/transcriptions/stats`)).json()) as TranscriptionStats;

  test("when one worker has spent the minute's audio seconds, then the other's call is held back before it leaves", async () => {
    const [first, second] = twoWorkers({ SPEECH_AUDIO_SECONDS_PER_MINUTE: String(Math.ceil(call.durationSeconds) + 2) });

    await first!.transcribe(request('call-1'));
    const error = (await second!.transcribe(request('call-2')).catch((caught: unknown) => caught)) as SlowlaneError;

    assert.equal(error.name, 'TokenBudgetExhaustedError');
    assert.equal(error.details?.limitedBy, 'input');
    assert.ok((error.retryAfterMs ?? 0) > 0);
    assert.equal((await stats()).requests, 1);
  });

  test('when one worker holds the only concurrent request, then the other waits for it, and gets it once it is free', async () => {
    const [first, second] = twoWorkers({ SPEECH_MAX_CONCURRENT_REQUESTS: '1' });
    await fetch(`${simulator.url}/_sim/faults`, { method: 'POST', body: JSON.stringify({ fault: { kind: 'slow', delayMs: 1_500 }, times: 1 }) });

    const slow = first!.transcribe(request('call-1'));
    // Until the slow call has its slot and reached the simulator, the second could take the slot first.
    while ((await stats()).requests === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const refused = (await second!.transcribe(request('call-2')).catch((caught: unknown) => caught)) as SlowlaneError;
    await slow;
    const later = await second!.transcribe(request('call-2'));

    assert.equal(refused.name, 'TokenBudgetExhaustedError');
    assert.equal(refused.details?.limitedBy, 'concurrency');
    assert.ok(later.segments.length > 0);
    const seen = await stats();
    assert.equal(seen.requests, 2);
    assert.equal(seen.maxInFlight, 1);
  });

  test("when a lease's holder never gives it back (its worker died), then Redis lets it lapse after the hold time", async () => {
    const limit = new RedisConcurrencyLimit(redis.client(), 1, `speech-lapse-${process.pid}`);
    assert.ok(await limit.acquire('whisper-1', 300));
    assert.equal(await limit.acquire('whisper-1', 300), undefined);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const after = await limit.acquire('whisper-1', 60_000);
    assert.ok(after);
    await limit.release(after);
    assert.equal(await limit.inFlight('whisper-1'), 0);
  });
});
