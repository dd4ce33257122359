import { setting, type SettingsArea } from '../settings/setting';
import { bool, duration, int, names, secret, text, url } from '../settings/setting-types';
import { MESSAGES_API_MEDIA_LIMITS } from '../../common/model-media';
import { modelPricesType } from './model-prices';

/** Where the local provider simulator listens (local/simulator): the model endpoint when no real key is set. */
export const SIMULATOR_URL = 'http://127.0.0.1:8787';

export const modelArea = {
  title: 'Model provider',
  settings: {
    apiKey: setting({
      env: 'ANTHROPIC_API_KEY',
      type: secret(),
      required: 'production',
      doc: 'a real Anthropic key; without it (and without `ANTHROPIC_BASE_URL`) the local provider simulator is used',
    }),
    baseURL: setting({
      env: 'ANTHROPIC_BASE_URL',
      type: url(),
      defaultDoc: `\`${SIMULATOR_URL}\` (the simulator) when \`ANTHROPIC_API_KEY\` is unset, else Anthropic's`,
      doc: 'the Messages API endpoint',
    }),
    classifyModel: setting({
      env: 'MODEL_CLASSIFY',
      type: text(),
      default: 'claude-haiku-4-5',
      doc: 'model for classification',
    }),
    extractModel: setting({
      env: 'MODEL_EXTRACT',
      type: text(),
      default: 'claude-sonnet-4-6',
      doc: 'model for field extraction',
    }),
    scannedMaxPages: setting({
      env: 'MODEL_SCANNED_MAX_PAGES',
      type: int({ min: 1, max: MESSAGES_API_MEDIA_LIMITS.pdfMaxPages }),
      default: String(MESSAGES_API_MEDIA_LIMITS.pdfMaxPages),
      doc: 'pages an `invoice` PDF may have: past it the API answers 413 too_many_pages at submission. A PDF without a text layer goes to the model as page images, and the Messages API reads at most 100 PDF pages per request (the worker applies it too)',
    }),
    scoreModel: setting({
      env: 'MODEL_SCORE',
      type: text(),
      default: 'claude-haiku-4-5',
      doc: 'model for `order.score` (a small one: one short call per order)',
    }),
    digestModel: setting({
      env: 'MODEL_DIGEST',
      type: text(),
      default: 'claude-haiku-4-5',
      doc: 'model for `tickets.digest` themes and narrative (many small calls: a small model)',
    }),
    requestTimeoutMs: setting({
      env: 'MODEL_REQUEST_TIMEOUT',
      type: duration(),
      default: '120s',
      doc: "per-attempt HTTP timeout (below the activity's 3-minute start-to-close timeout)",
    }),
    prices: setting({
      env: 'MODEL_PRICES',
      type: modelPricesType,
      default: '{}',
      defaultDoc: 'Claude list prices (`lib/config/model-prices.ts`)',
      doc: 'USD per million tokens, merged over the list prices; used for the cost of each job',
    }),
    repairTries: setting({
      env: 'MODEL_REPAIR_TRIES',
      type: int({ min: 0, max: 3 }),
      default: '1',
      doc: 'when an answer fails its schema, how many more calls in the same activity show the model its answer and the validator\'s errors before the answer counts as invalid (0 = none)',
    }),
    constrainedOutputModels: setting({
      env: 'MODEL_CONSTRAINED_OUTPUT',
      type: names(),
      default: 'claude-opus-4-6,claude-sonnet-4-6,claude-sonnet-4-5,claude-opus-4-5,claude-haiku-4-5',
      // Locally the simulator's malformed-answer fault is how the demo and the tests reach review and repair.
      localDefault: '',
      doc: "models that take the Messages API's `output_config.format` (JSON schema): their JSON answers are constrained to the step's schema instead of being repaired, and a schema-invalid one fails the step (`ConstrainedAnswerInvalidError`); other models keep the repair loop (docs/gateway.md)",
    }),
    filesApi: setting({
      env: 'MODEL_FILES_API',
      type: bool(),
      default: 'true',
      doc: "scans (a scanned invoice, a document's scanned pages) are uploaded once per job to the provider's Files API (beta `files-api-2025-04-14`) and named by id in each live call, then deleted when the job ends; `false` sends them inline as base64 in every call, for a provider without that beta (docs/gateway.md#files-api)",
    }),
    fieldCitations: setting({
      env: 'MODEL_FIELD_CITATIONS',
      type: bool(),
      default: 'true',
      doc: "after an invoice's fields pass their schema, one more call on its text with the Messages API's citations on the document says where each value is printed, for the reviewer page to highlight (about the extraction's input tokens again; scans are not cited); `false` leaves every field uncited (docs/gateway.md)",
    }),
    maxRetries: setting({
      env: 'ANTHROPIC_MAX_RETRIES',
      type: int({ min: 0, max: 10 }),
      default: '0',
      doc: "the SDK's own retries per call; 0 because Temporal is the only retry layer (the benchmark's naive mode uses 2)",
    }),
  },
} satisfies SettingsArea;
