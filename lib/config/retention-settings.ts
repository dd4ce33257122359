import { Type } from '@sinclair/typebox';
import { parseDurationMs } from '../duration';
import { json, jsonPath } from '../settings/json-setting';
import { setting, type SettingsArea } from '../settings/setting';
import { duration } from '../settings/setting-types';

const tenantRetentionSchema = Type.Record(Type.String(), Type.String({ minLength: 1 }));

const tenantRetentionType = json(tenantRetentionSchema, {
  description: '{"<tenant id>": "<duration>"}, e.g. {"acme": "90d"}',
  check: (retention) =>
    Object.entries(retention)
      .filter(([, text]) => !((parseDurationMs(text) ?? 0) > 0))
      .map(([tenantId]) => ({ path: jsonPath([tenantId]), message: 'must be a duration such as 12h, 7d or 90d' })),
  map: (retention): Record<string, number> =>
    Object.fromEntries(Object.entries(retention).map(([tenantId, text]) => [tenantId, parseDurationMs(text) as number])),
});

/** How long a tenant's closed jobs keep what they left behind, and the sweep that deletes it (docs/security.md). */
export const retentionArea = {
  title: 'Retention',
  settings: {
    retentionMs: setting({
      env: 'RETENTION',
      type: duration(),
      default: '30d',
      // The local stack's namespace keeps closed runs 168 h (temporal-dev.yaml).
      localDefault: '7d',
      doc: "how long after a job closes its objects in S3 and its Temporal executions are kept, for a tenant without its own entry in TENANT_RETENTION; at most the namespace's retention, which deletes the histories (and with them the sweep's way to find the objects) anyway",
    }),
    tenantRetentionMs: setting({
      env: 'TENANT_RETENTION',
      type: tenantRetentionType,
      default: '{}',
      doc: "each tenant's own retention, where its contract differs from RETENTION",
    }),
    retentionSweepEveryMs: setting({
      env: 'RETENTION_SWEEP_EVERY',
      type: duration(),
      default: '1h',
      doc: 'how often the retention sweep (the Temporal Schedule `slowlane-retention-sweep`) deletes what is due; read by the worker that serves bulk, which creates or updates the schedule at start',
    }),
  },
} satisfies SettingsArea;
