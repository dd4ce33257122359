import assert from '../support/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import { EXTRACT_MAX_TOKENS } from '../../activities/invoice/prompts';
import { type CapacityInputs, type CapacityPlan, MODEL_CALLS_PER_JOB, planCapacity } from '../../gateway/capacity-plan';

const REPO_ROOT = join(__dirname, '..', '..');

/**
 * Runs `npm run capacity -- …` as the operator would, with only the environment given here: none of the servers'
 * settings (the plan reads the gateway's alone), and no REDIS_URL, so the plan comes from the configured
 * expectation and not from whatever a local Redis has observed.
 */
function capacityCommand(env: Record<string, string>, args: string[] = []) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'ops', 'capacity-command.ts'), ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? REPO_ROOT, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** A small provider tier where the input tokens bind and the slot cap splits the plan over several workers. */
const ENV = {
  GATEWAY_ITPM: '100000',
  GATEWAY_OTPM: '400000',
  GATEWAY_RPM: '600',
  GATEWAY_INTERACTIVE_SHARE: '0.3',
  GATEWAY_EXPECTED_INPUT_TOKENS: '3000',
  GATEWAY_EXPECTED_OUTPUT_TOKENS: '700',
  GATEWAY_EXPECTED_LATENCY: '6s',
  GATEWAY_MAX_SLOTS_PER_WORKER: '3',
};

/**
 * The inputs written out from ENV by hand, the way docs/gateway.md describes them: the command's own reading
 * of the config (ops/capacity-inputs.ts) is part of what is checked, so it is not used to build these.
 */
const INPUTS: CapacityInputs = {
  limits: { inputTokensPerMinute: 100_000, outputTokensPerMinute: 400_000, requestsPerMinute: 600 },
  interactiveShare: 0.3,
  callsPerJob: MODEL_CALLS_PER_JOB,
  inputTokensPerCall: 3_000,
  outputTokensPerCall: 700,
  // classify's 256 and extraction's max_tokens, averaged over the job's two calls.
  reservedOutputTokensPerCall: (256 + EXTRACT_MAX_TOKENS) / 2,
  latencyMs: 6_000,
  maxSlotsPerWorker: 3,
  cpuMsPerJob: 300,
  coresPerWorker: 1,
};

const figure = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits });

/** The three figures an operator sizes the fleet by, as the text report prints them. */
function printedFigures(output: string) {
  const ceiling = /^Jobs\/min ceiling\s+([\d,.]+) for the whole fleet \(bound by ([a-z ]+)\)/m.exec(output);
  const slots = /^Slots per worker\s+([\d,]+)/m.exec(output);
  const workers = /^Workers worth running per queue: (\d+)/m.exec(output);
  assert.ok(ceiling && slots && workers, output);
  return { ceiling: ceiling[1], bindingLimit: ceiling[2], slots: slots[1], workers: workers[1] };
}

describe('npm run capacity', () => {
  test('when run with provider limits and an expected call in the environment, then it prints the ceiling, slots and workers the plan computes', () => {
    const expected = planCapacity(INPUTS);
    // The example is only worth running if it exercises the fraction, the slot cap and more than one worker.
    assert.ok(!Number.isInteger(expected.ceilingJobsPerMinute) && expected.workersWorthRunning > 1);
    const printed = printedFigures(capacityCommand(ENV));
    assert.deepEqual(printed, {
      ceiling: figure(expected.ceilingJobsPerMinute, 1),
      bindingLimit: expected.bindingLimit,
      slots: figure(expected.slotsPerWorker),
      workers: String(expected.workersWorthRunning),
    });
  });

  test('when asked for JSON, then the inputs and the whole plan are exactly what planCapacity gives for them', () => {
    const printed = JSON.parse(capacityCommand(ENV, ['--json'])) as {
      inputs: CapacityInputs;
      source: string;
      plan: CapacityPlan;
    };
    assert.deepEqual(printed.inputs, INPUTS);
    assert.deepEqual(printed.plan, planCapacity(INPUTS));
    assert.equal(printed.source, 'configured expectation');
  });

  test('when the call is overridden on the command line, then the plan follows the flags rather than the environment', () => {
    const args = [
      '--json',
      '--latency',
      '20s',
      '--output-tokens',
      '1500',
      '--max-tokens',
      '2000',
      '--cpu-ms-per-job',
      '4000',
    ];
    const printed = JSON.parse(capacityCommand(ENV, args)) as { inputs: CapacityInputs; plan: CapacityPlan };
    const inputs: CapacityInputs = {
      ...INPUTS,
      latencyMs: 20_000,
      outputTokensPerCall: 1_500,
      reservedOutputTokensPerCall: 2_000,
      cpuMsPerJob: 4_000,
    };
    assert.deepEqual(printed.inputs, inputs);
    assert.deepEqual(printed.plan, planCapacity(inputs));
    assert.notDeepEqual(printed.plan, planCapacity(INPUTS), 'the flags changed the plan');
  });

  test('when WORKER_MAX_CONCURRENT_ACTIVITIES is set, then the planned slots are still printed and the override is named beside them', () => {
    const output = capacityCommand({ ...ENV, WORKER_MAX_CONCURRENT_ACTIVITIES: '17' });
    const expected = planCapacity(INPUTS);
    assert.equal(printedFigures(output).slots, figure(expected.slotsPerWorker));
    assert.match(output, /^Slots per worker\s+\d+ \(WORKER_MAX_CONCURRENT_ACTIVITIES=17 overrides it\)/m);
  });
});
