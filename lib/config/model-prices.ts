import { Type, type Static } from '@sinclair/typebox';
import { json } from '../settings/json-setting';

const usdPerMillionTokens = Type.Number({ minimum: 0 });

const modelPriceSchema = Type.Object(
  { inputPerMTok: usdPerMillionTokens, outputPerMTok: usdPerMillionTokens },
  { additionalProperties: false },
);

/** USD per million input and output tokens. */
export type ModelPrice = Static<typeof modelPriceSchema>;

/** Claude list prices (USD per million tokens) as published on 2026-12-02; MODEL_PRICES is merged over them. */
export const DEFAULT_PRICES: Record<string, ModelPrice> = {
  'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 },
  'claude-sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-sonnet-4-6': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-opus-4-5': { inputPerMTok: 5, outputPerMTok: 25 },
  'claude-opus-4-6': { inputPerMTok: 5, outputPerMTok: 25 },
};

export const modelPricesType = json(Type.Record(Type.String(), modelPriceSchema), {
  description: '{"<model>": {inputPerMTok, outputPerMTok}}',
});
