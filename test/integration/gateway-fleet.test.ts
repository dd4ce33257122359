import assert from '../support/assert';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { localTestConfig, localTestEnv } from '../support/test-credentials';
import { ModelRateLimitedError, TokenBudgetExhaustedError } from '../../common/errors';
import { RedisBudget } from '../../gateway/budget/redis-budget';
import { type BudgetSettings, DEFAULT_POOL } from '../../gateway/budget/token-budget';
import { createAnthropicClient, createModelGateway } from '../../gateway/model-gateway';
import { createLogger } from '../../lib/logger';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import { gatewayTestCall } from '../support/gateway-calls';
import { startLocalRedis, type LocalRedis } from '../../local/stack/redis-server';

const execFileAsync = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const log = createLogger('gateway-test', 'silent');

interface SimCall {
  status: number;
  inputTokens: number;
  outputTokens: number;
}

async function simulatorCalls(simulator: RunningSimulator): Promise<SimCall[]> {
  const response = await fetch(`${simulator.url}/_sim/calls`);
  return ((await response.json()) as { calls: SimCall[] }).calls;
}

/** A gateway as one worker process has it, on the shared Redis budget, with the test's clock. */
function fleetMember(
  redis: LocalRedis,
  simulator: RunningSimulator,
  settings: BudgetSettings,
  keyPrefix: string,
  now: () => number,
) {
  const config = localTestConfig({ ANTHROPIC_BASE_URL: simulator.url });
  const budget = new RedisBudget(redis.client(), settings, { keyPrefix, now });
  return createModelGateway({
    client: createAnthropicClient(config.anthropic),
    prices: config.anthropic.prices,
    log,
    budget: { budget, settings },
    now,
    random: () => 0,
  });
}

describe('the gateway fleet on one Redis budget', () => {
  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startLocalRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  test('when two worker processes share one Redis budget, then together they never exceed it', async () => {
    // Sixteen lanes per process with one-second answers: the first burst alone asks for more than the minute
    // allows, before any rate-limit header could tell either process what the other spent.
    const limits = { inputTokensPerMinute: 12_000, outputTokensPerMinute: 200_000, requestsPerMinute: 1_000 };
    const simulator = await startSimulator({
      port: 0,
      inputTokensPerMinute: limits.inputTokensPerMinute,
      outputTokensPerMinute: limits.outputTokensPerMinute,
      requestsPerMinute: limits.requestsPerMinute,
      latencyBaseMs: 1_000,
      latencyPerOutputTokenMs: 0,
    });
    try {
      const env = {
        ...process.env,
        ...localTestEnv(),
        LOG_LEVEL: 'error',
        ANTHROPIC_BASE_URL: simulator.url,
        REDIS_URL: redis.url,
        GATEWAY_REDIS_PREFIX: `two-processes-${process.pid}`,
        GATEWAY_ITPM: String(limits.inputTokensPerMinute),
        GATEWAY_OTPM: String(limits.outputTokensPerMinute),
        GATEWAY_RPM: String(limits.requestsPerMinute),
      };
      const startedAt = Date.now();
      const run = (label: string) =>
        execFileAsync(
          process.execPath,
          ['--import', 'tsx', join(ROOT, 'test', 'support', 'gateway-load.ts'), '6000', '16', label],
          {
            cwd: ROOT,
            env,
          },
        );
      const outputs = await Promise.all([run('first'), run('second')]);
      const elapsedMs = Date.now() - startedAt;
      const counts = outputs.map(
        (output) =>
          JSON.parse(output.stdout.trim().split('\n').pop() ?? '{}') as {
            calls: number;
            refused: number;
            failed: number;
          },
      );

      const calls = await simulatorCalls(simulator);
      assert.ok(
        counts.every((count) => count.calls + count.refused > 0),
        `both processes drew on the budget: ${JSON.stringify(counts)}`,
      );
      assert.ok(
        counts.some((count) => count.refused > 0),
        'the budget, not the load, was the limit',
      );
      assert.deepEqual(
        calls.filter((call) => call.status !== 200).map((call) => call.status),
        [],
        'the provider never had to refuse a call',
      );
      const billedInput = calls.reduce((sum, call) => sum + call.inputTokens, 0);
      const allowed = limits.inputTokensPerMinute + (limits.inputTokensPerMinute / 60_000) * elapsedMs;
      assert.ok(billedInput <= allowed, `billed ${billedInput} input tokens; the budget allows at most ${allowed}`);
    } finally {
      await simulator.close();
    }
  });

  test('when the provider answers 429 with retry-after, then the whole fleet pauses until then', async () => {
    let now = 1_800_000_000_000;
    const clock = () => now;
    const simulator = await startSimulator(
      { port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0 },
      { clock: { now: clock } },
    );
    try {
      await fetch(`${simulator.url}/_sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fault: { kind: 'rate_limit', retryAfterSeconds: 7 }, times: 1 }),
      });
      const settings = {
        pools: {
          [DEFAULT_POOL]: { inputTokensPerMinute: 2_000_000, outputTokensPerMinute: 400_000, requestsPerMinute: 4_000 },
        },
        interactiveShare: 0.2,
      };
      const prefix = `pause-${process.pid}`;
      const first = fleetMember(redis, simulator, settings, prefix, clock);
      const second = fleetMember(redis, simulator, settings, prefix, clock);

      await assert.rejects(
        first.callTool(gatewayTestCall('pause-1', 'bulk')),
        (error: unknown) => error instanceof ModelRateLimitedError && error.retryAfterMs === 7_000,
      );
      now += 2_000;
      for (const [member, priority] of [
        [second, 'interactive'],
        [first, 'bulk'],
      ] as const) {
        await assert.rejects(member.callTool(gatewayTestCall('pause-2', priority)), (error: unknown) => {
          assert.ok(error instanceof TokenBudgetExhaustedError, String(error));
          assert.equal(error.retryAfterMs, 5_000, 'the rest of the provider’s pause');
          return true;
        });
      }
      assert.equal((await simulatorCalls(simulator)).length, 1, 'no call left while the fleet was paused');

      now += 5_000;
      const answer = await second.callTool(gatewayTestCall('pause-3', 'bulk'));
      assert.ok(answer.usage.inputTokens > 0);
      assert.deepEqual(
        (await simulatorCalls(simulator)).map((call) => call.status),
        [429, 200],
      );
    } finally {
      await simulator.close();
    }
  });

  test('when bulk calls take everything they may, then interactive calls still go through on their reserved share', async () => {
    const now = 1_900_000_000_000;
    const clock = () => now;
    const simulator = await startSimulator(
      { port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0 },
      { clock: { now: clock } },
    );
    try {
      const settings = {
        pools: {
          [DEFAULT_POOL]: { inputTokensPerMinute: 10_000, outputTokensPerMinute: 400_000, requestsPerMinute: 4_000 },
        },
        interactiveShare: 0.3,
      };
      const prefix = `starve-${process.pid}`;
      const bulkWorker = fleetMember(redis, simulator, settings, prefix, clock);
      const interactiveWorker = fleetMember(redis, simulator, settings, prefix, clock);

      let bulkCalls = 0;
      for (;;) {
        try {
          await bulkWorker.callTool(gatewayTestCall(`bulk-${bulkCalls}`, 'bulk'));
          bulkCalls += 1;
        } catch (error) {
          assert.ok(error instanceof TokenBudgetExhaustedError, String(error));
          break;
        }
      }
      assert.ok(bulkCalls > 0);
      let interactiveCalls = 0;
      for (let index = 0; index < 3; index++) {
        await interactiveWorker.callTool(gatewayTestCall(`interactive-${index}`, 'interactive'));
        interactiveCalls += 1;
      }
      await assert.rejects(bulkWorker.callTool(gatewayTestCall('bulk-again', 'bulk')), TokenBudgetExhaustedError);
      assert.equal(interactiveCalls, 3);
    } finally {
      await simulator.close();
    }
  });
});
