import assert from '../support/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import { localTestConfig } from '../support/test-credentials';
import type { Client } from '@temporalio/client';
import { Registry } from 'prom-client';
import { parse } from 'yaml';
import { createApiMetrics } from '../../lib/metrics-api';
import { createGatewayMetrics } from '../../gateway/gateway-metrics';
import { createSpendMetrics } from '../../gateway/spend/spend-metrics';
import { registerTemporalGauges } from '../../lib/metrics-temporal';
import { createBatchLaneMetrics } from '../../lib/metrics-batch-lane';
import { createWorkerMetrics } from '../../lib/metrics-worker';
import { KeyUsage, registerKeyUsageMetric } from '../../lib/payload-codec/key-usage';

const DEPLOY = join(__dirname, '..', '..', 'deploy');

/** The Temporal SDK metrics the dashboard and alerts use, as the workers serve them (lib/metrics-sdk.ts naming). */
const SDK_METRICS = [
  'temporal_worker_task_slots_used',
  'temporal_worker_task_slots_available',
  'temporal_activity_schedule_to_start_latency_seconds_bucket',
  'temporal_workflow_task_execution_failed_total',
];

/** Every series name our registries can produce (histograms as _bucket/_sum/_count). */
function exportedNames(): Set<string> {
  const registry = new Registry();
  createWorkerMetrics(registry);
  createGatewayMetrics(registry);
  createSpendMetrics(registry);
  createBatchLaneMetrics(registry);
  createApiMetrics(registry);
  registerKeyUsageMetric(registry, new KeyUsage());
  // Registering reads nothing from Temporal; only a scrape would call the client.
  registerTemporalGauges(registry, {} as unknown as Client, localTestConfig());
  const names = new Set<string>(SDK_METRICS);
  for (const metric of registry.getMetricsAsArray()) {
    const { name, type } = metric as unknown as { name: string; type: string };
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
    else names.add(name);
  }
  return names;
}

function metricsIn(expression: string): string[] {
  return [...expression.matchAll(/\b((?:slowlane|temporal)_[a-z0-9_]+)/g)].map((match) => match[1] as string);
}

interface Rule {
  alert: string;
  expr: string;
  labels?: { severity?: string };
  annotations?: { summary?: string };
}

const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana', 'slowlane-dashboard.json'), 'utf8')) as {
  panels: Array<{ title: string; type: string; targets?: Array<{ expr: string }> }>;
};
const rules = (parse(readFileSync(join(DEPLOY, 'alerts', 'slowlane-rules.yaml'), 'utf8')) as { groups: Array<{ rules: Rule[] }> })
  .groups.flatMap((group) => group.rules);

describe('the Grafana dashboard and the alert rules', () => {
  const known = exportedNames();

  test('when the dashboard queries are read, then each names only metrics the processes export', () => {
    const unknown = dashboard.panels
      .flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, names: metricsIn(target.expr) })))
      .flatMap(({ panel, names }) => names.filter((name) => !known.has(name)).map((name) => `${panel}: ${name}`));
    assert.deepEqual(unknown, []);
  });

  test('when the dashboard is read, then the queue, latency, failure and cost metrics all have a panel', () => {
    const used = new Set(dashboard.panels.flatMap((panel) => (panel.targets ?? []).flatMap((target) => metricsIn(target.expr))));
    for (const name of [
      'slowlane_task_queue_backlog_age_seconds',
      'slowlane_task_queue_backlog',
      'slowlane_jobs',
      'slowlane_jobs_finished_total',
      'slowlane_job_duration_seconds_bucket',
      'slowlane_step_duration_seconds_bucket',
      'slowlane_retries_total',
      'slowlane_dead_letters_total',
      'slowlane_model_tokens_total',
      'slowlane_model_cost_usd_total',
      'slowlane_job_cost_usd_bucket',
      'slowlane_review_wait_seconds_bucket',
      'slowlane_model_calls_total',
    ]) {
      assert.ok(used.has(name), `no panel shows ${name}`);
    }
  });

  test('when the alert rules are read, then the three promised alerts exist and use exported metrics', () => {
    const byName = new Map(rules.map((rule) => [rule.alert, rule]));
    const interactive = byName.get('SlowlaneInteractiveTaskWaiting');
    assert.match(interactive?.expr ?? '', /slowlane_task_queue_backlog_age_seconds\{priority="interactive"\}\) > \d+/);
    assert.match(byName.get('SlowlaneWebhooksGivenUp')?.expr ?? '', /increase\(slowlane_webhook_deliveries_given_up_total/);
    assert.match(byName.get('SlowlaneScheduleRunSkipped')?.expr ?? '', /increase\(slowlane_schedule_runs_skipped_total/);
    assert.match(byName.get('SlowlaneBatchEntryWaiting')?.expr ?? '', /slowlane_batch_lane_oldest_waiting_entry_age_seconds\) > \d+/);
    assert.match(byName.get('SlowlaneBulkBacklogOld')?.expr ?? '', /slowlane_task_queue_backlog_age_seconds\{priority="bulk"\}\) > \d+/);
    assert.match(byName.get('SlowlaneDeadLettersGrowing')?.expr ?? '', /slowlane_jobs\{status="dead_letter"\}/);
    assert.match(byName.get('SlowlaneProvider429Share')?.expr ?? '', /status="429".*> 0\.01/s);
    assert.match(byName.get('SlowlaneTenantSpendCapReached')?.expr ?? '', /sum by \(tenant, window\) \(increase\(slowlane_spend_cap_refusals_total/);
    assert.match(byName.get('SlowlaneBatchEntriesFailing')?.expr ?? '', /slowlane_batch_lane_entry_results_total\{outcome=~"errored\|expired"\}/);
    const keyWarning = localTestConfig().temporal.payloadCodecKeyWarnEncryptions;
    assert.match(byName.get('SlowlanePayloadKeyOverused')?.expr ?? '', /sum by \(key_id\) \(increase\(slowlane_payload_encryptions_total\[30d\]\)\) > (\d+)$/);
    for (const name of ['SlowlanePayloadKeyOverused', 'SlowlanePayloadKeyRotationTooSlow']) {
      assert.equal(Number(/> (\d+)$/.exec(byName.get(name)?.expr ?? '')?.[1]), keyWarning, `${name} uses PAYLOAD_CODEC_KEY_WARN_ENCRYPTIONS' default`);
    }
    assert.match(byName.get('SlowlaneBatchCollectorNotSubmitting')?.expr ?? '', /slowlane_batch_lane_entries_enqueued_total.*slowlane_batch_lane_batches_submitted_total/s);
    for (const rule of rules) {
      assert.ok(rule.labels?.severity, `${rule.alert} has a severity`);
      assert.ok(rule.annotations?.summary, `${rule.alert} has a summary`);
      const unknown = metricsIn(rule.expr).filter((name) => !known.has(name));
      assert.deepEqual(unknown, [], `${rule.alert} uses metrics nobody exports`);
    }
  });
});
