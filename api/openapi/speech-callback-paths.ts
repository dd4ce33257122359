import { SPEECH_CALLBACK_AUTH_HEADER, SPEECH_CALLBACK_PATH } from '../../lib/speech/speech-callback-signer';
import { bodyRef, type Schema } from './refs';
import { json } from './responses';

const problem = (description: string): Schema => ({ description, content: json(bodyRef('ErrorBody')) });

/** The speech provider's webhook: no tenant credential, a signed URL and the provider's auth header instead. */
export const speechCallbackPaths: Record<string, Schema> = {
  [`${SPEECH_CALLBACK_PATH}/{id}`]: {
    post: {
      operationId: 'receiveSpeechCallback',
      summary: 'The speech provider says a transcript is done (AssemblyAI webhook)',
      description:
        'Called by the speech-to-text provider (SPEECH_PROVIDER=assemblyai), never by clients: a worker submitted a chunk with this URL as `webhook_url` and ' +
        `\`${SPEECH_CALLBACK_AUTH_HEADER}\` as \`webhook_auth_header_name\`, then handed its slot back. The route checks the URL's HMAC (SPEECH_CALLBACK_SECRET) and the header, ` +
        'checks with the provider that the transcript is finished and completes the activity attempt the random id stands for with the transcript id (or fails it); the id carries no task token. ' +
        'Each armed attempt is used once: a duplicate, or a callback for an attempt that has already timed out (its next attempt polls), answers 200 without completing anything, ' +
        'because the provider retries any non-2xx. See docs/gateway.md.',
      tags: ['webhooks'],
      security: [],
      parameters: [
        { name: 'id', in: 'path', required: true, description: 'The callback id a worker drew for the submission.', schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' } },
        { name: 'sig', in: 'query', required: true, description: 'HMAC-SHA256 of the id (base64url).', schema: { type: 'string' } },
        { name: SPEECH_CALLBACK_AUTH_HEADER, in: 'header', required: true, description: 'The value given as `webhook_auth_header_value` at submission.', schema: { type: 'string' } },
      ],
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['transcript_id'],
          properties: { transcript_id: { type: 'string' }, status: { type: 'string', enum: ['completed', 'error'] } },
        }),
      },
      responses: {
        '200': {
          description: '`completed` or `failed`: the waiting activity took the transcript id or its error; `duplicate`: already used; `stale`: the attempt it stood for is over.',
          content: json({ type: 'object', required: ['outcome'], properties: { outcome: { type: 'string', enum: ['completed', 'failed', 'duplicate', 'stale'] } } }),
        },
        '400': problem('`invalid_request`: the body has no `transcript_id`, or is not JSON.'),
        '401': problem(`\`unauthorized\`: the \`${SPEECH_CALLBACK_AUTH_HEADER}\` header is missing or wrong.`),
        '403': problem('`forbidden`: the URL’s signature is not ours.'),
        '404': problem('`not_found`: no callback with this id is waiting.'),
        '413': problem('`payload_too_large`: the body is over the API’s 1 MB JSON limit (a callback’s body is a few hundred bytes).'),
        '500': problem('`internal`: a fault on our side; the provider delivers again.'),
        '503': {
          ...problem('`not_finished` (the provider says done, its transcript does not yet) or `temporal_unavailable`: the provider delivers again.'),
          headers: { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } } },
        },
      },
    },
  },
};
