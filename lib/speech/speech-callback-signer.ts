import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Secret } from '../secret';

/** The API route the speech provider posts to when a transcript is done; `/{id}?sig=` follows. */
export const SPEECH_CALLBACK_PATH = '/callbacks/speech';

/** The header the provider sends back with each callback (AssemblyAI's `webhook_auth_header_name`). */
export const SPEECH_CALLBACK_AUTH_HEADER = 'x-slowlane-callback-auth';

export interface SignedSpeechCallback {
  id: string;
  url: string;
  authHeaderName: string;
  authHeaderValue: string;
}

export interface SpeechCallbackSigner {
  /** A fresh random id and its signed URL under the API's public base. */
  create(publicUrl: string): SignedSpeechCallback;
  /** The same id's URL and header again (a retried attempt re-arms the callback it submitted). */
  of(id: string, publicUrl: string): SignedSpeechCallback;
  verifyUrl(id: string, sig: string): boolean;
  verifyAuthHeader(id: string, value: string): boolean;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/**
 * HMACs keyed by SPEECH_CALLBACK_SECRET: one over the id in the URL (`sig`), another as the auth header's value, so
 * a URL that leaks into a log does not also give away the header. The URL carries a random id, never the task token.
 */
export function speechCallbackSigner(secret: Secret): SpeechCallbackSigner {
  const mac = (purpose: string, id: string) => createHmac('sha256', secret.reveal()).update(`${purpose}\n${id}`).digest('base64url');
  const same = (expected: string, given: string) => {
    const a = Buffer.from(expected);
    const b = Buffer.from(given);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  const of = (id: string, publicUrl: string): SignedSpeechCallback => ({
    id,
    url: `${publicUrl.replace(/\/$/, '')}${SPEECH_CALLBACK_PATH}/${id}?sig=${mac('url', id)}`,
    authHeaderName: SPEECH_CALLBACK_AUTH_HEADER,
    authHeaderValue: mac('header', id),
  });
  return {
    create: (publicUrl) => of(randomBytes(16).toString('base64url'), publicUrl),
    of,
    verifyUrl: (id, sig) => ID_PATTERN.test(id) && same(mac('url', id), sig),
    verifyAuthHeader: (id, value) => ID_PATTERN.test(id) && same(mac('header', id), value),
  };
}
