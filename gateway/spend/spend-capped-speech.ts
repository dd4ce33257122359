import { audioCostUsd } from '../speech/speech-meter';
import type { AsyncSpeechGateway, SpeechGateway, TranscribeRequest } from '../speech/transcription-call';
import type { TenantSpend } from './tenant-spend';

export interface SpeechSpendDeps {
  spend: TenantSpend;
  /** SPEECH_PRICE_PER_MINUTE, as the speech meter prices the bill. */
  pricePerMinute: number;
}

/**
 * The most a chunk can cost: its duration (ffprobe's, read before the call) rounded up to the second, as the
 * providers bill, at the price per minute.
 */
const mostItCosts = (request: TranscribeRequest, pricePerMinute: number) => () =>
  audioCostUsd(Math.ceil(request.durationSeconds), pricePerMinute);

/**
 * The synchronous speech door behind each tenant's spend caps, through the same admit/settle as the model and
 * embeddings gateways (gateway/spend/tenant-spend.ts): a chunk runs only when its duration's price fits the caps,
 * then is settled to the billed seconds' price. A refused chunk never reaches the speech budget or the provider and
 * throws TenantSpendCapReachedError, which the job waits out like a model step's. Chunks without a tenant pass through.
 */
export function withSpeechSpendCaps(inner: SpeechGateway, deps: SpeechSpendDeps): SpeechGateway {
  return {
    transcribe(request) {
      const { tenantId } = request;
      if (tenantId === undefined) return inner.transcribe(request);
      return deps.spend.spend(tenantId, {
        mostItCosts: mostItCosts(request, deps.pricePerMinute),
        run: () => inner.transcribe(request),
        costOf: (result) => result.usage.costUsd,
      });
    },
  };
}

/**
 * The asynchronous speech door behind the same caps: `submit` is the paid call (the provider bills the transcript it
 * accepted), held at the chunk's price and settled, once accepted, to the seconds the meter settles the budget to
 * (the chunk's duration rounded up; the provider bills its own reading of it). A poll (`fetch`) sends no audio and
 * is not counted.
 */
export function withAsyncSpeechSpendCaps(inner: AsyncSpeechGateway, deps: SpeechSpendDeps): AsyncSpeechGateway {
  return {
    submit(request, callback) {
      const { tenantId } = request;
      if (tenantId === undefined) return inner.submit(request, callback);
      const atMost = mostItCosts(request, deps.pricePerMinute);
      return deps.spend.spend(tenantId, { mostItCosts: atMost, run: () => inner.submit(request, callback), costOf: atMost });
    },
    fetch: (transcriptId, context) => inner.fetch(transcriptId, context),
  };
}
