import { Type, type Static } from '@sinclair/typebox';
import { json } from '../settings/json-setting';

const perMinute = Type.Number({ exclusiveMinimum: 0 });

const modelLimitsSchema = Type.Object(
  { inputTokensPerMinute: perMinute, outputTokensPerMinute: perMinute, requestsPerMinute: perMinute },
  { additionalProperties: false },
);

/** A provider's rate limits for one pool of models, per minute (the gateway's budget is sized from these). */
export type ModelLimits = Static<typeof modelLimitsSchema>;

export const modelLimitsType = json(Type.Record(Type.String(), modelLimitsSchema), {
  description: '{"<model>": {inputTokensPerMinute, outputTokensPerMinute, requestsPerMinute}}',
});
