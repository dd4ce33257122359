import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { describe, test } from '@jest/globals';
import { abandonUpdate } from '../../common/messages';
import { submit, waitForJob } from '../support/api-client';
import { injectFault, markedInvoice, type MetricSample, scrape, temporalClient, total } from '../support/operations';
import { testEnv } from '../support/test-env';

async function scrapeAll(): Promise<{ api: MetricSample[]; workers: MetricSample[] }> {
  const urls = testEnv().metricsUrls;
  const workerUrls = Object.entries(urls).filter(([name]) => name.startsWith('worker'));
  assert.ok(urls.api && workerUrls.length >= 1, `the stack reports its metrics endpoints: ${JSON.stringify(urls)}`);
  const workers = (await Promise.all(workerUrls.map(([, url]) => scrape(url)))).flat();
  return { api: await scrape(urls.api), workers };
}

async function submitMarked(marker: string) {
  const document = await markedInvoice(marker);
  const answer = await submit(document.bytes, { fileName: document.fileName });
  assert.equal(answer.status, 202, JSON.stringify(answer.body));
  return answer.body.jobId as string;
}

describe('Prometheus endpoints after real jobs (API and every worker)', () => {
  test('when one job posts after a retried 529 and another dead-letters, then the scrapes count jobs, tokens, the retry and the dead letter', async () => {
    const before = await scrapeAll();
    const retried = `metrics-retry-${randomUUID()}`;
    const parked = `metrics-dlq-${randomUUID()}`;
    const removeOverload = await injectFault({ tool: 'classify_document', textIncludes: retried }, 'overloaded', {
      times: 1,
      retryAfterSeconds: 1,
    });
    const removeRefusal = await injectFault({ tool: 'record_invoice', textIncludes: parked }, 'invalid_request');
    const client = await temporalClient();
    try {
      const postedId = await submitMarked(retried);
      const parkedId = await submitMarked(parked);
      const posted = await waitForJob(postedId, ['posted', 'failed', 'dead_letter', 'awaiting_review']);
      assert.equal(posted.status, 'posted', JSON.stringify(posted));
      assert.equal(posted.attempts?.classifyDocument, 2, 'the 529 was retried once');
      const deadLetter = await waitForJob(parkedId, ['dead_letter', 'posted']);
      assert.equal(deadLetter.status, 'dead_letter');

      const after = await scrapeAll();
      const delta = (side: 'api' | 'workers', name: string, labels: Record<string, string> = {}) =>
        total(after[side], name, labels) - total(before[side], name, labels);

      assert.equal(delta('workers', 'slowlane_jobs_finished_total', { status: 'posted', priority: 'interactive' }), 1);
      assert.equal(delta('workers', 'slowlane_job_duration_seconds_count', { status: 'posted' }), 1);
      assert.equal(delta('workers', 'slowlane_retries_total', { activity: 'classifyDocument', error_type: 'ModelUnavailableError' }), 1);
      assert.equal(delta('workers', 'slowlane_dead_letters_total', { step: 'extractInvoiceFields', error_type: 'ModelRequestInvalidError' }), 1);
      assert.equal(delta('workers', 'slowlane_model_calls_total', { status: '529' }), 1, 'the gateway saw the 529');

      // Tokens in the metrics are exactly what the two jobs account for themselves.
      const jobTokens = (posted.usage?.inputTokens ?? 0) + (deadLetter.usage?.inputTokens ?? 0);
      assert.ok(jobTokens > 0);
      assert.equal(delta('workers', 'slowlane_model_tokens_total', { tenant: 'demo', direction: 'input' }), jobTokens);
      assert.equal(delta('workers', 'slowlane_job_tokens_sum', { direction: 'input' }), posted.usage?.inputTokens);
      assert.ok(delta('workers', 'slowlane_model_cost_usd_total', { tenant: 'demo' }) > 0, 'cost is counted');

      assert.equal(delta('api', 'slowlane_http_requests_total', { method: 'POST', route: '/jobs', status: '202' }), 2);
      for (const type of ['workflow', 'activity']) {
        const backlog = after.api.find(
          (s) => s.name === 'slowlane_task_queue_backlog_age_seconds' && s.labels.task_queue?.endsWith('-interactive') && s.labels.type === type,
        );
        assert.ok(backlog, `the API reports the age of the oldest ${type} task on the interactive queue`);
      }
      assert.ok(
        after.workers.some((s) => s.name === 'temporal_workflow_completed_total' && s.value >= 1),
        "the workers' endpoints carry the Temporal SDK's own metrics",
      );
      assert.ok(after.workers.some((s) => s.name === 'temporal_activity_schedule_to_start_latency_seconds_count'));

      // The open-jobs gauge is read from visibility and cached briefly: ask until it has caught up.
      let parkedGauge = 0;
      for (let i = 0; i < 40 && parkedGauge < 1; i++) {
        parkedGauge = total(await scrape(testEnv().metricsUrls.api as string), 'slowlane_jobs', { status: 'dead_letter' });
        if (parkedGauge < 1) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      assert.ok(parkedGauge >= 1, 'the API counts the parked job among open jobs');
      await client.workflow.getHandle(parkedId).executeUpdate(abandonUpdate, { args: [{ operator: 'metrics-test' }] });
    } finally {
      await removeOverload();
      await removeRefusal();
      await client.connection.close();
    }
  });
});
