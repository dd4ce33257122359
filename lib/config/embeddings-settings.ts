import { setting, type SettingsArea } from '../settings/setting';
import { duration, int, number, oneOf, secret, text, url } from '../settings/setting-types';
import { SIMULATOR_URL } from './model-settings';

/** Voyage AI, the embeddings provider Anthropic's documentation points to. */
export const VOYAGE_URL = 'https://api.voyageai.com';

/** The embeddings provider: the gateway's second provider, with its own budget (docs/gateway.md). */
export const embeddingsArea = {
  title: 'Embeddings provider',
  settings: {
    apiKey: setting({
      env: 'EMBEDDINGS_API_KEY',
      type: secret(),
      doc: 'a Voyage AI key; without it (and without `EMBEDDINGS_BASE_URL`) the local simulator answers',
    }),
    baseURL: setting({
      env: 'EMBEDDINGS_BASE_URL',
      type: url(),
      defaultDoc: `\`${SIMULATOR_URL}\` (the simulator) when \`EMBEDDINGS_API_KEY\` is unset, else \`${VOYAGE_URL}\``,
      doc: 'where `POST /v1/embeddings` is sent',
    }),
    model: setting({
      env: 'EMBEDDINGS_MODEL',
      type: text(),
      default: 'voyage-3.5',
      doc: 'embedding model',
    }),
    dimension: setting({
      env: 'EMBEDDINGS_DIMENSION',
      type: oneOf(['256', '512', '1024', '2048']),
      default: '1024',
      doc: "the vectors' length (`output_dimension`)",
    }),
    tokensPerMinute: setting({
      env: 'EMBEDDINGS_TPM',
      type: int({ min: 1, max: 1e10 }),
      default: '8000000',
      doc: "the provider's tokens per minute for the model; the embeddings budget, apart from the Messages API's",
    }),
    requestsPerMinute: setting({
      env: 'EMBEDDINGS_RPM',
      type: int({ min: 1, max: 1e7 }),
      default: '2000',
      doc: "the provider's requests per minute for the model",
    }),
    maxInputsPerRequest: setting({
      env: 'EMBEDDINGS_MAX_INPUTS_PER_REQUEST',
      type: int({ min: 1, max: 1000 }),
      default: '1000',
      doc: "the provider's most inputs in one request (Voyage AI: 1,000 on current models, 128 on older ones); a document's chunks are embedded in requests of up to this many",
    }),
    maxTokensPerRequest: setting({
      env: 'EMBEDDINGS_MAX_TOKENS_PER_REQUEST',
      type: int({ min: 1, max: 10_000_000 }),
      default: '320000',
      doc: "the provider's most tokens in one request for the model (voyage-3.5: 320K; voyage-3.5-lite: 1M; voyage-3-large: 120K), counted as the gateway estimates them (a token per four characters)",
    }),
    pricePerMTok: setting({
      env: 'EMBEDDINGS_PRICE_PER_MTOK',
      type: number({ min: 0 }),
      default: '0.06',
      doc: 'USD per million tokens embedded (voyage-3.5 list price), for the cost of each job',
    }),
    requestTimeoutMs: setting({
      env: 'EMBEDDINGS_REQUEST_TIMEOUT',
      type: duration(),
      default: '60s',
      doc: "per-attempt HTTP timeout (below the activity's start-to-close timeout)",
    }),
  },
} satisfies SettingsArea;
