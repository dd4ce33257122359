import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { Registry } from 'prom-client';
import { TenantSpendCapReachedError } from '../../common/errors';
import { InProcessSpendStore } from '../../gateway/spend/local-spend-store';
import type { ToolCallRequest } from '../../gateway/model-call';
import { type SpendEvent, withSpendCaps } from '../../gateway/spend/spend-capped-gateway';
import { spendMetricsListener } from '../../gateway/spend/spend-metrics';
import { createTenantSpend } from '../../gateway/spend/tenant-spend';
import { windowsAt } from '../../gateway/spend/spend-windows';
import { modelProvider } from '../support/spend-fakes';
import { NEW_YEARS_EVE, spendStoreScenarios } from '../support/spend-store-scenarios';

describe('spend windows', () => {
  test('when it is the last hour of the year, then the day and the month both turn at midnight UTC', () => {
    const [day, month] = windowsAt(NEW_YEARS_EVE, { dailyUsd: 2 });
    assert.deepEqual(day, { window: 'day', key: '2026-12-31', endsAt: Date.UTC(2027, 0, 1), capUsd: 2 });
    assert.deepEqual(month, { window: 'month', key: '2026-12', endsAt: Date.UTC(2027, 0, 1), capUsd: undefined });
  });

  test('when it is a February day, then the month turns on the 1st of March', () => {
    const [day, month] = windowsAt(Date.UTC(2028, 1, 29, 5), { monthlyUsd: 9 });
    assert.equal(day.key, '2028-02-29');
    assert.equal(month.endsAt, Date.UTC(2028, 2, 1));
  });
});

describe('the in-process spend store', () => {
  spendStoreScenarios((clock) => new InProcessSpendStore(clock), (name) => name);
});

const request = (tenantId?: string): ToolCallRequest => ({
  jobId: 'invoice:demo:k',
  ...(tenantId ? { tenantId } : {}),
  priority: 'bulk',
  model: 'claude-haiku-4-5',
  system: 'read the invoice',
  documentText: 'x'.repeat(3500),
  instruction: 'extract',
  tool: { name: 'record', description: 'record', inputSchema: { type: 'object' } },
  maxTokens: 1000,
});

describe('the gateway behind spend caps', () => {
  const prices = { 'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 } };

  test('when a tenant has spent its daily cap, then its next call is refused before the provider with when the day turns', async () => {
    const provider = modelProvider(0.5);
    const events: SpendEvent[] = [];
    const now = Date.UTC(2026, 11, 3, 17);
    const spend = createTenantSpend({
      store: new InProcessSpendStore(() => now),
      caps: { demo: { dailyUsd: 1 } },
      onEvent: (event) => events.push(event),
    });
    const gateway = withSpendCaps(provider, { spend, prices });
    await gateway.callTool(request('demo'));
    await gateway.callTool(request('demo'));
    const refusal = await gateway.callTool(request('demo')).catch((error: unknown) => error);
    assert.ok(refusal instanceof TenantSpendCapReachedError, String(refusal));
    assert.equal(refusal.retryable, false);
    assert.deepEqual(refusal.details?.spendCap, { window: 'day', capUsd: 1, spentUsd: 1, resumesAt: '2026-12-04T00:00:00.000Z' });
    assert.equal(provider.calls, 2, 'the refused call never went out');
    assert.deepEqual(events.at(-1), { type: 'refused', tenantId: 'demo', window: 'day', capUsd: 1, spentUsd: 1 });
    assert.deepEqual(events.filter((event) => event.type === 'spent').at(-1), { type: 'spent', tenantId: 'demo', costUsd: 0.5, totals: { day: 1, month: 1 } });
  });

  test('when a call names no tenant or a tenant without caps, then it goes out whatever was spent', async () => {
    const provider = modelProvider(5);
    const gateway = withSpendCaps(provider, {
      spend: createTenantSpend({ store: new InProcessSpendStore(), caps: { demo: { dailyUsd: 1 } } }),
      prices,
    });
    await gateway.callTool(request('other'));
    await gateway.callTool(request('other'));
    await gateway.callTool(request());
    await gateway.callTool(request());
    assert.equal(provider.calls, 4);
  });
});

describe('the spend metrics', () => {
  test('when calls settle and one is refused, then the tenant’s totals, caps and refusals are labelled by tenant and window', async () => {
    const registry = new Registry();
    const listen = spendMetricsListener(registry, { demo: { dailyUsd: 1 } });
    listen({ type: 'spent', tenantId: 'demo', costUsd: 0.5, totals: { day: 0.75, month: 3 } });
    listen({ type: 'refused', tenantId: 'demo', window: 'day', capUsd: 1, spentUsd: 0.75 });
    listen({ type: 'deferred', tenantId: 'demo', costUsd: 0.25 });
    const text = await registry.metrics();
    assert.match(text, /slowlane_tenant_spend_usd\{tenant="demo",window="day"\} 0\.75/);
    assert.match(text, /slowlane_tenant_spend_usd\{tenant="demo",window="month"\} 3/);
    assert.match(text, /slowlane_tenant_spend_cap_usd\{tenant="demo",window="day"\} 1/);
    assert.doesNotMatch(text, /slowlane_tenant_spend_cap_usd\{tenant="demo",window="month"\}/);
    assert.match(text, /slowlane_spend_cap_refusals_total\{tenant="demo",window="day"\} 1/);
    assert.match(text, /slowlane_spend_settlements_deferred_total\{tenant="demo"\} 1/);
  });
});
