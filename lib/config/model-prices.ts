import { Type, type Static } from '@sinclair/typebox';
import { json } from '../settings/json-setting';

const usdPerMillionTokens = Type.Number({ minimum: 0 });

const modelPriceSchema = Type.Object(
  {
    inputPerMTok: usdPerMillionTokens,
    outputPerMTok: usdPerMillionTokens,
    /** A 5-minute cache write; the provider's list price is 1.25 × input (used when absent). */
    cacheWritePerMTok: Type.Optional(usdPerMillionTokens),
    /** A cache read (hit or refresh); the provider's list price is 0.1 × input (used when absent). */
    cacheReadPerMTok: Type.Optional(usdPerMillionTokens),
  },
  { additionalProperties: false },
);

/**
 * USD per million input, output, cache-write and cache-read tokens
 * (https://platform.claude.com/docs/en/build-with-claude/prompt-caching#pricing).
 */
export type ModelPrice = Static<typeof modelPriceSchema>;

/** Claude list prices (USD per million tokens) as published on 2026-12-02; MODEL_PRICES is merged over them. */
export const DEFAULT_PRICES: Record<string, ModelPrice> = {
  'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5, cacheWritePerMTok: 1.25, cacheReadPerMTok: 0.1 },
  'claude-sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15, cacheWritePerMTok: 3.75, cacheReadPerMTok: 0.3 },
  'claude-sonnet-4-6': { inputPerMTok: 3, outputPerMTok: 15, cacheWritePerMTok: 3.75, cacheReadPerMTok: 0.3 },
  'claude-opus-4-5': { inputPerMTok: 5, outputPerMTok: 25, cacheWritePerMTok: 6.25, cacheReadPerMTok: 0.5 },
  'claude-opus-4-6': { inputPerMTok: 5, outputPerMTok: 25, cacheWritePerMTok: 6.25, cacheReadPerMTok: 0.5 },
};

export const modelPricesType = json(Type.Record(Type.String(), modelPriceSchema), {
  description: '{"<model>": {inputPerMTok, outputPerMTok, cacheWritePerMTok?, cacheReadPerMTok?}}',
});
