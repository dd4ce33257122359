import assert from '../support/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, test } from '@jest/globals';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { workerTelemetry } from '../../lib/worker-telemetry';
import { historyFromFileText } from '../../ops/history-files';
import { bundleWorkflows, WORKFLOWS_PATH } from '../../workers/create-workers';
import * as workflows from '../../workflows';
import { quietTemporalRuntime } from '../support/workflow-harness';
import { alteredReplayId } from './altered-workflows/step-inserted-at-start';
import { bundleWithEditedSchema, editedInvoiceSchema } from './edited-invoice-schema';
import { testDataConverter } from '../support/test-codec';

const HISTORIES_DIR = join(__dirname, '..', 'histories');
const histories = readdirSync(HISTORIES_DIR)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => ({ name: file.replace(/\.json$/, ''), history: historyFromFileText(readFileSync(join(HISTORIES_DIR, file), 'utf8')) }));

function workflowTypeOf(history: (typeof histories)[number]['history']): string | undefined {
  return history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? undefined;
}

/** Every workflow type the workers register (workflows/index.ts); each must have recorded histories. */
const WORKFLOW_TYPES = Object.keys(workflows).sort();

/** Replays the histories under the workflow ids given (the recorded file's name, unless told), by id. */
async function replayAll(workflowBundle: WorkflowBundle, idOf: (name: string) => string = (name) => name) {
  const results = new Map<string, Error | undefined>();
  const named = histories.map(({ name, history }) => ({ workflowId: idOf(name), history }));
  for await (const result of Worker.runReplayHistories({ workflowBundle, sinks: workerTelemetry().sinks, dataConverter: testDataConverter() }, named)) {
    results.set(result.workflowId, result.error);
  }
  return results;
}

describe('recorded histories replay on the current workflow code', () => {
  let current: WorkflowBundle;
  beforeAll(async () => {
    quietTemporalRuntime();
    current = await bundleWorkflows();
  });

  test('when the recorded histories are listed, then every path operators care about is covered', () => {
    const names = histories.map((h) => h.name);
    const paths = [
      // invoice
      'posted', 'reviewed-approved', 'reviewed-by-signal', 'reviewed-rejected', 'review-expired', 'dead-lettered-retried',
      'dead-lettered-abandoned', 'abandoned-then-reset', 'input-error-fails-job', 'posted-with-result', 'reviewed-by-signal-checked-by-type',
      // order.score, document, tickets.digest: review, the batch lane, a retried chunk, a schedule, a cancel
      'order-score-reviewed', 'order-score-through-batch-lane', 'order-score-on-batch-lane-wait', 'cancelled-order-score',
      'document-chunk-retried', 'chunk-group-with-failed-chunk', 'chunk-group-embeds-in-requests', 'chunk-group-summarises-in-one-step',
      'chunk-group-step-failed', 'chunk-group-embeddings-failed',
      'tickets-digest-through-batch-lane', 'scheduled-tickets-digest',
      // call.transcribe: a parked chunk retried alone, a summary sent to review, the provider that calls back, a call
      // heard poorly sent to review
      'call-chunk-retried', 'call-summary-reviewed', 'call-transcribed-by-callback', 'call-low-confidence-reviewed',
      // the batch lane's own workflows, and webhook deliveries
      'batch-collector-gathered', 'batch-collector-answers-lane-wait', 'batch-collector-continued', 'batch-collector-carries-late-entries',
      'batch-collector-entries-coalesced',
      'message-batch-answered',
      'message-batch-answered-with-opened-at', 'webhook-given-up', 'webhook-retried-delivered',
      // Web Push: a job that pushes, and a push delivery
      'posted-with-push', 'push-delivered',
      // the retention sweep
      'retention-sweep',
    ];
    for (const path of paths) {
      assert.ok(names.includes(path), `test/histories/${path}.json is missing; run npm run record-histories -- ${path}`);
    }
  });

  test('when the histories are grouped by workflow type, then every type the workers register has one', () => {
    assert.ok(WORKFLOW_TYPES.length >= 8, `workflows/index.ts exports ${WORKFLOW_TYPES.join(', ')}`);
    const recorded = new Set(histories.map(({ history }) => workflowTypeOf(history)));
    assert.deepEqual(WORKFLOW_TYPES.filter((type) => !recorded.has(type)), [], 'workflow types without a recorded history');
    assert.deepEqual([...recorded].filter((type) => !type || !WORKFLOW_TYPES.includes(type)), [], 'histories of types no worker registers');
  });

  test('when every recorded history is replayed on the current bundle, then none is non-deterministic', async () => {
    const results = await replayAll(current);
    assert.equal(results.size, histories.length);
    const failures = [...results].filter(([, error]) => error).map(([name, error]) => `${name}: ${error?.message}`);
    assert.deepEqual(failures, [], 'a workflow change broke replay: guard it with patched() (docs/operations.md)');
  });

  test('when any workflow type gets a step at its start without patched(), then every history of that type breaks and every other one replays', async () => {
    const altered = await bundleWorkflows(WORKFLOWS_PATH, {
      interceptorModules: [join(__dirname, 'altered-workflows', 'step-inserted-at-start.ts')],
    });
    const unexpected: string[] = [];
    for (const type of WORKFLOW_TYPES) {
      const results = await replayAll(altered, (name) => alteredReplayId(type, name));
      assert.equal(results.size, histories.length);
      for (const { name, history } of histories) {
        const error = results.get(alteredReplayId(type, name));
        if (workflowTypeOf(history) === type) {
          if (!(error instanceof DeterminismViolationError)) unexpected.push(`${type} altered, ${name} replayed with ${String(error)}`);
        } else if (error) {
          unexpected.push(`${type} altered, ${name} (${workflowTypeOf(history)}) failed: ${error.message}`);
        }
      }
    }
    assert.deepEqual(unexpected, []);
  });
});

/** The fields of every review decision the recorded histories carry, from a signal or an Update. */
function recordedReviewFields(): Array<{ history: string; fields: unknown }> {
  const found: Array<{ history: string; fields: unknown }> = [];
  for (const { name, history } of histories) {
    for (const event of history.events) {
      const payload =
        event.workflowExecutionSignaledEventAttributes?.input?.payloads?.[0] ??
        event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.args?.payloads?.[0];
      // Only plain JSON can be a review decision here: the collector's batch answers arrive through the codec.
      if (!payload?.data || Buffer.from(payload.metadata?.encoding ?? '').toString('utf8') !== 'json/plain') continue;
      const decision = JSON.parse(Buffer.from(payload.data).toString('utf8')) as { fields?: unknown };
      if (decision.fields !== undefined) found.push({ history: name, fields: decision.fields });
    }
  }
  return found;
}

describe('recorded histories replay after the invoice schema is edited', () => {
  test('when the schema now refuses fields reviewers approved, then every recorded history still replays', async () => {
    quietTemporalRuntime();
    const strict = new Ajv({ allErrors: true, strict: true });
    addFormats(strict, ['date']);
    const validateEdited = strict.compile(editedInvoiceSchema());
    const approved = recordedReviewFields();
    assert.ok(approved.length > 0, 'some recorded history carries reviewed fields');
    for (const { history, fields } of approved) {
      assert.equal(validateEdited(fields), false, `the edit must refuse the fields approved in ${history}, or it proves nothing`);
    }

    const results = await replayAll(await bundleWithEditedSchema());
    assert.equal(results.size, histories.length);
    const failures = [...results].filter(([, error]) => error).map(([name, error]) => `${name}: ${error?.message}`);
    assert.deepEqual(failures, [], 'workflow code judged recorded decisions by the schema of today');
  });
});
