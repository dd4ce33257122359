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

  test('when the provider lowers its limits mid-run and restores them, then the shared budget follows for every member', async () => {
    let now = 2_000_000_000_000;
    const clock = () => now;
    const limits = { inputTokensPerMinute: 60_000, outputTokensPerMinute: 400_000, requestsPerMinute: 4_000 };
    const simulator = await startSimulator(
      { port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0, ...limits },
      { clock: { now: clock } },
    );
    const sim = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${simulator.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as { levels: { input_tokens: number } };
    };
    try {
      const settings = { pools: { [DEFAULT_POOL]: limits }, interactiveShare: 0.2 };
      const prefix = `moving-${process.pid}`;
      const members = [0, 1, 2].map(() => fleetMember(redis, simulator, settings, prefix, clock));
      const observer = new RedisBudget(redis.client(), settings, { keyPrefix: prefix, now: clock });
      const inputLevel = async () => {
        const state = await observer.snapshot(DEFAULT_POOL);
        assert.ok(state, 'the pool exists in Redis');
        return { learned: state.learnedLimit.input, total: state.reserve.input + state.shared.input };
      };
      let calls = 0;
      const call = (member: number) =>
        (members[member] as (typeof members)[number]).callTool(gatewayTestCall(`moving-${calls++}`, 'bulk'));

      // The fleet spends what bulk may of a full minute, each member in turn, until the budget refuses.
      for (let member = 0; ; member = (member + 1) % 3) {
        try {
          await call(member);
        } catch (error) {
          assert.ok(error instanceof TokenBudgetExhaustedError, String(error));
          break;
        }
      }
      const spent = (await simulatorCalls(simulator)).length;

      // Another application takes half the quota: the provider keeps what was used, so its bucket is overdrawn.
      await sim('PUT', '/_sim/limits', { scale: 0.5 });
      now += 20_000;
      const overdrawn = (await sim('GET', '/_sim/limits')).levels.input_tokens;
      assert.ok(overdrawn < -1_000, `the provider's input bucket is overdrawn: ${overdrawn}`);
      // The first member to call learns it from the answer (a 429 here: nobody could have known before).
      await call(0).catch(() => undefined);
      const lowered = await inputLevel();
      assert.equal(lowered.learned, 30_000, 'the fleet adopted the lowered limit');
      assert.ok(
        lowered.total <= overdrawn + 1_000,
        `the shared pool holds the provider's debt (${lowered.total} vs ${overdrawn}), not zero`,
      );
      // Members that never saw the answer wait for the debt too, instead of meeting the provider's 429.
      now += 1_500;
      await assert.rejects(call(1), TokenBudgetExhaustedError);
      await assert.rejects(call(2), TokenBudgetExhaustedError);
      assert.equal((await simulatorCalls(simulator)).length, spent + 1, 'nothing went out while the pool was in debt');

      // The other application stops: the provider restores the limits and its bucket gains the rise, which the
      // next answer shows (the pool refilled a second at the lower rate before it: 500 tokens short).
      now += 40_000;
      await sim('DELETE', '/_sim/limits');
      now += 1_000;
      await call(2);
      const provider = (await sim('GET', '/_sim/limits')).levels.input_tokens;
      const restored = await inputLevel();
      assert.equal(restored.learned, 60_000, 'the fleet followed the limit back up');
      assert.ok(
        Math.abs(restored.total - provider) <= 1_000,
        `the shared pool holds what the provider holds (${restored.total} vs ${provider}), rise included`,
      );
      await call(0);
      await call(1);
      assert.deepEqual(
        (await simulatorCalls(simulator)).slice(spent + 1).map((answer) => answer.status),
        [200, 200, 200],
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
