import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { localTestConfig, testTenant } from '../support/test-credentials';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { createJobsService } from '../../api/jobs-service';
import { type RunningApi, startApiServer } from '../../api/server';
import { gatewayFromConfig } from '../../gateway/gateway-from-config';
import { createLogger } from '../../lib/logger';
import { createObjectStore } from '../../lib/object-store';
import { connectClient } from '../../lib/temporal-connection';
import { startTracing, type Tracing } from '../../lib/tracing';
import { workerTelemetry } from '../../lib/worker-telemetry';
import { createActivityDeps } from '../../workers/activity-deps';
import { bundleWorkflows, createWorkers } from '../../workers/create-workers';
import { sampleWith } from '../support/samples';
import { testEnv } from '../support/test-env';
import { quietTemporalRuntime } from '../support/workflow-harness';
import { createAuditTrail } from '../../lib/audit/audit-trail';

/**
 * One trace from the API request through the workflow and its activities. API and worker run in this process on
 * a task queue of their own, both exporting to one in-memory exporter, against the test stack's Temporal, S3,
 * simulator and ledger; the trace context crosses Temporal only in its headers.
 */
describe('OpenTelemetry traces (API → workflow → activities)', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let api: RunningApi;
  let worker: Worker;
  let running: Promise<void>;
  let closeClient: () => Promise<void>;

  beforeAll(async () => {
    const { productEnv } = testEnv();
    assert.ok(productEnv, 'needs the stack that `npm test` starts');
    const config = localTestConfig({
      ...productEnv,
      TASK_QUEUE_PREFIX: `trace-${randomUUID().slice(0, 8)}`,
      API_PORT: '0',
      METRICS_ENABLED: 'false',
      LOG_LEVEL: 'silent',
    });
    const log = createLogger('trace-test', 'silent');
    tracing = startTracing({ serviceName: 'slowlane-test', exporter });
    quietTemporalRuntime();

    const client = await connectClient(config.temporal);
    closeClient = () => client.connection.close();
    const store = createObjectStore(config);
    const jobs = createJobsService({ client, store, config });
    api = await startApiServer({ config, jobs, log, ready: async () => true, audit: createAuditTrail(store, log) }, { host: '127.0.0.1', port: 0 });

    const connection = await NativeConnection.connect({ address: config.temporal.address });
    const gateway = gatewayFromConfig(config, log);
    [worker] = (await createWorkers({
      connection,
      config,
      deps: createActivityDeps(config, gateway),
      workflowBundle: await bundleWorkflows(),
      telemetry: workerTelemetry({ tracing }),
      priorities: ['interactive'],
    })) as [Worker];
    running = worker.run().finally(async () => {
      await gateway.close();
      await connection.close();
    });
  });

  afterAll(async () => {
    worker?.shutdown();
    await running;
    await api?.close();
    await closeClient?.();
    await tracing?.shutdown();
  });

  test('when a job is submitted, then one trace spans the HTTP request, the workflow and every activity', async () => {
    const sample = await sampleWith('posted');
    const form = new FormData();
    form.set('type', 'invoice');
    form.set('file', new Blob([sample.bytes]), sample.fileName);
    const headers = { authorization: `Bearer ${testTenant('demo').apiKey}` };
    const submitted = await fetch(`${api.url}/jobs`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': `trace-${randomUUID()}` },
      body: form,
    });
    assert.equal(submitted.status, 202);
    const { jobId } = (await submitted.json()) as { jobId: string };
    let status = '';
    for (let i = 0; i < 240 && !['posted', 'failed', 'awaiting_review', 'dead_letter'].includes(status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = ((await (await fetch(`${api.url}/jobs/${encodeURIComponent(jobId)}`, { headers })).json()) as { status: string }).status;
    }
    assert.equal(status, 'posted');

    const spans = exporter.getFinishedSpans();
    const request = spans.find((span) => span.name === 'POST /jobs');
    assert.ok(request, `the API request has a span; got ${spans.map((s) => s.name).join(', ')}`);
    const trace = spans.filter((span) => span.spanContext().traceId === request.spanContext().traceId);
    const named = (name: string): ReadableSpan => {
      const found = trace.find((span) => span.name === name);
      assert.ok(found, `${name} is in the request's trace; it holds ${trace.map((s) => s.name).join(', ')}`);
      return found;
    };
    const start = named('StartWorkflow:invoiceWorkflow');
    const run = named('RunWorkflow:invoiceWorkflow');
    assert.equal(start.parentSpanId, request.spanContext().spanId, 'the client call runs inside the request span');
    assert.equal(run.parentSpanId, start.spanContext().spanId, 'the workflow continues the context from its start headers');
    for (const activity of ['extractText', 'classifyDocument', 'extractInvoiceFields', 'postInvoiceToLedger']) {
      const scheduled = named(`StartActivity:${activity}`);
      const executed = named(`RunActivity:${activity}`);
      assert.equal(scheduled.parentSpanId, run.spanContext().spanId, `${activity} is scheduled by the workflow run`);
      assert.equal(executed.parentSpanId, scheduled.spanContext().spanId, `${activity} runs under its scheduling span`);
    }
    assert.equal(request.attributes['http.route'], '/jobs');
  });
});
