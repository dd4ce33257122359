/**
 * When a secret is too weak to deploy with. One rule for every secret setting (keys, tokens, webhook and HMAC
 * secrets, codec keys), so a process refuses a guessable value wherever it is configured.
 */

/** The documented minimum: 32 characters, e.g. `openssl rand -base64 32` (44) or `openssl rand -hex 16` (32). */
export const MIN_SECRET_LENGTH = 32;

/** Fewer distinct characters than this is a pattern (`aaaa…`, `abab…`, `0101…`), not a random value. */
const MIN_DISTINCT_CHARACTERS = 10;

/**
 * Values published in this repository, its docs or its history, and the usual placeholders: anyone can guess them.
 * Compared without case; a value that merely contains one (`demo-key-…` plus 30 random characters) is not refused.
 */
export const KNOWN_DEMO_SECRETS: readonly string[] = [
  'admin-key',
  'demo-key',
  'demo-reviewer-token',
  'acme-key',
  'acme-reviewer-token',
  'slowlane-local-page-token-secret',
  'slowlane-local-secret',
  'whsec_ZGVtby13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5',
  'whsec_YWNtZS13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5',
  'ZGVtby13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5',
  'YWNtZS13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5',
  'changeme',
  'change-me',
  'password',
  'secret',
  'test',
  'example',
];

const known = new Set(KNOWN_DEMO_SECRETS.map((value) => value.toLowerCase()));

export interface SecretStrengthOptions {
  /** Characters at least; MIN_SECRET_LENGTH unless a format says otherwise (a codec key's base64 of 32 bytes). */
  minLength?: number;
}

/**
 * Why `value` is too weak, as the end of a sentence naming the setting ("is shorter than 32 characters"), or
 * undefined when it will do. Never repeats the value.
 */
export function weakSecretReason(value: string, options: SecretStrengthOptions = {}): string | undefined {
  const minLength = options.minLength ?? MIN_SECRET_LENGTH;
  if (known.has(value.toLowerCase())) return 'is a published demo value; generate a new one (`openssl rand -base64 32`)';
  if (value.length < minLength) return `is shorter than ${minLength} characters; generate one with \`openssl rand -base64 32\``;
  if (new Set(value).size < MIN_DISTINCT_CHARACTERS) {
    return `has fewer than ${MIN_DISTINCT_CHARACTERS} different characters, too little variety for a secret`;
  }
  return undefined;
}
