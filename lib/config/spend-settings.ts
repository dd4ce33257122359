import { type Static, Type } from '@sinclair/typebox';
import { json } from '../settings/json-setting';
import { setting, type SettingsArea } from '../settings/setting';
import { oneOf, text } from '../settings/setting-types';

const usd = Type.Number({ exclusiveMinimum: 0 });

const spendCapsSchema = Type.Record(
  Type.String(),
  Type.Object({ dailyUsd: Type.Optional(usd), monthlyUsd: Type.Optional(usd) }, { additionalProperties: false }),
);

/** USD per UTC day and month, per tenant id. */
export type TenantSpendCaps = Static<typeof spendCapsSchema>;

const spendCapsType = json(spendCapsSchema, {
  description: '{"<tenant id>": {dailyUsd?, monthlyUsd?}}, each cap > 0; windows are UTC days and months',
});

/** Each tenant's own spend caps (docs/gateway.md, "Spend caps per tenant"). */
export const spendArea = {
  title: 'Spend caps',
  settings: {
    tenantSpendCaps: setting({
      env: 'TENANT_SPEND_CAPS',
      type: spendCapsType,
      default: '{}',
      doc: "each tenant's spend caps in USD (model calls, embeddings and transcription); a job whose next call would pass one waits in `budget_wait`. Read at start: after raising a cap, restart the workers, then wake the waiting jobs (POST /admin/tenants/:tenantId/spend-cap-raised)",
    }),
    spendRedisKeyPrefix: setting({
      env: 'SPEND_REDIS_PREFIX',
      type: text(),
      default: 'slowlane:spend',
      doc: "prefix of the spend totals' Redis keys (with REDIS_URL; without it each worker process counts alone)",
    }),
    spendRedisPersistence: setting({
      env: 'SPEND_REDIS_PERSISTENCE',
      type: oneOf(['checked', 'managed']),
      default: 'checked',
      doc: "how the worker knows REDIS_URL keeps spend totals across a restart: `checked` asks Redis (`CONFIG GET appendonly` must say `yes`; in production the worker refuses to start otherwise); `managed` declares a managed Redis that persists and disables CONFIG (docs/deployment.md)",
    }),
  },
} satisfies SettingsArea;
