/**
 * The request body of Voyage AI's `POST /v1/embeddings`, as far as the simulator checks it: `input` (a string or
 * a list of strings), `model`, and the optional `input_type` (`query` | `document` | null), `output_dimension` and
 * `truncation`. Anything else the real API accepts (output_dtype, encoding_format) is ignored.
 */
export interface EmbeddingsRequest {
  inputs: string[];
  model: string;
  inputType: 'query' | 'document' | null;
  outputDimension: number;
  truncation: boolean;
}

/** The list limit of the current models; older models allowed 128. */
export const MAX_INPUTS = 1000;
/**
 * The most tokens all inputs of one request may hold, per model, as Voyage AI's API reference lists them: 1M for
 * voyage-3.5-lite, 320K for voyage-3.5 and voyage-2, 120K for the others (voyage-3-large, the code, finance, law
 * and multilingual models).
 */
const TOTAL_TOKENS_BY_MODEL: Record<string, number> = { 'voyage-3.5-lite': 1_000_000, 'voyage-3.5': 320_000, 'voyage-2': 320_000 };
export const maxTotalTokens = (model: string): number => TOTAL_TOKENS_BY_MODEL[model] ?? 120_000;
/** voyage-3.5's context length: longer inputs are truncated, or refused with `truncation: false`. */
export const MAX_INPUT_TOKENS = 32_000;
export const DEFAULT_DIMENSION = 1024;
const DIMENSIONS = [256, 512, 1024, 2048];

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

export function parseEmbeddingsRequest(body: unknown): Parsed<EmbeddingsRequest> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, message: 'The request body must be a JSON object.' };
  }
  const fields = body as Record<string, unknown>;
  const input = fields.input;
  const inputs = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((item) => typeof item === 'string')) {
    return { ok: false, message: 'input must be a string or a non-empty list of strings.' };
  }
  if (inputs.length > MAX_INPUTS) {
    return { ok: false, message: `The batch size limit is ${MAX_INPUTS}. Your batch size is ${inputs.length}.` };
  }
  if (inputs.some((item) => item.length === 0)) return { ok: false, message: 'input must not contain empty strings.' };
  if (typeof fields.model !== 'string' || fields.model === '') return { ok: false, message: 'model is required.' };
  const inputType = fields.input_type ?? null;
  if (inputType !== null && inputType !== 'query' && inputType !== 'document') {
    return { ok: false, message: "input_type must be 'query', 'document' or null." };
  }
  const outputDimension = fields.output_dimension ?? DEFAULT_DIMENSION;
  if (typeof outputDimension !== 'number' || !DIMENSIONS.includes(outputDimension)) {
    return { ok: false, message: `output_dimension must be one of ${DIMENSIONS.join(', ')}.` };
  }
  const truncation = fields.truncation ?? true;
  if (typeof truncation !== 'boolean') return { ok: false, message: 'truncation must be a boolean.' };
  return { ok: true, value: { inputs: inputs as string[], model: fields.model, inputType, outputDimension, truncation } };
}
