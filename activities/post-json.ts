import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type CallbackUrlPolicy, guardedLookup } from '../lib/callback-url';

export interface PostJsonOptions {
  headers: Record<string, string>;
  /** JSON text for a webhook; a push's encrypted bytes (activities/push/deliver-push.ts). */
  body: string | Buffer;
  policy: CallbackUrlPolicy;
  signal: AbortSignal;
}

export interface PostJsonAnswer {
  status: number;
  /** The receiver's Retry-After header, as sent. */
  retryAfter?: string;
}

/** POSTs a body and resolves with the status; the response body is discarded. Redirects are not followed. */
export type PostJson = (url: URL, options: PostJsonOptions) => Promise<PostJsonAnswer>;

/**
 * node:http rather than fetch because only node:http lets us pass our own DNS `lookup`: the connection goes to
 * the very address the callback policy approved.
 */
export const postJson: PostJson = (url, options) =>
  new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
      lookup: guardedLookup(options.policy),
      signal: options.signal,
    });
    request.on('response', (response) => {
      response.resume();
      const retryAfter = response.headers['retry-after'];
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ...(retryAfter ? { retryAfter } : {}) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(options.body);
  });
