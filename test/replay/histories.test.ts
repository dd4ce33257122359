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
import { bundleWorkflows } from '../../workers/create-workers';
import { quietTemporalRuntime } from '../support/workflow-harness';
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

async function replayAll(workflowBundle: WorkflowBundle) {
  const results = new Map<string, Error | undefined>();
  const named = histories.map(({ name, history }) => ({ workflowId: name, history }));
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
    for (const path of ['posted', 'reviewed-approved', 'reviewed-by-signal', 'reviewed-rejected', 'review-expired', 'dead-lettered-retried', 'dead-lettered-abandoned', 'abandoned-then-reset', 'batch-collector-gathered', 'message-batch-answered', 'batch-collector-answers-lane-wait', 'message-batch-answered-with-opened-at', 'webhook-given-up', 'batch-collector-carries-late-entries']) {
      assert.ok(names.includes(path), `test/histories/${path}.json is missing; run npm run record-histories`);
    }
  });

  test('when every recorded history is replayed on the current bundle, then none is non-deterministic', async () => {
    const results = await replayAll(current);
    assert.equal(results.size, histories.length);
    const failures = [...results].filter(([, error]) => error).map(([name, error]) => `${name}: ${error?.message}`);
    assert.deepEqual(failures, [], 'a workflow change broke replay: guard it with patched() (docs/operations.md)');
  });

  test('when the workflow is changed without patched(), then replay reports a determinism violation', async () => {
    const altered = await bundleWorkflows(join(__dirname, 'altered-workflows', 'index.ts'));
    const results = await replayAll(altered);
    const posted = results.get('posted');
    assert.ok(posted, 'the posted history was replayed');
    assert.ok(posted instanceof DeterminismViolationError, `expected DeterminismViolationError, got ${String(posted)}`);
    assert.match(posted.message, /extractText|classifyDocument/);
    // The altered deploy changes the invoice workflow only; a webhook delivery's history replays on it unchanged.
    const invoiceRuns = histories.filter(({ history }) => workflowTypeOf(history) === 'invoiceWorkflow').map(({ name }) => name);
    assert.ok(invoiceRuns.length > 0);
    assert.ok(invoiceRuns.every((name) => results.get(name) !== undefined), 'every invoice history that ran a step breaks');
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
