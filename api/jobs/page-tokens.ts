import { createHash } from 'node:crypto';

/**
 * Temporal's page tokens travel with a checksum. The server answers a token it cannot read with a generic error
 * that its client retries for about 20 seconds; a mangled or made-up token is a 400 at once instead.
 */
export const pageTokens = {
  write(token: Uint8Array): string {
    const bytes = Buffer.from(token);
    return `${bytes.toString('base64url')}.${pageTokenChecksum(bytes)}`;
  },
  /** The token's bytes, or null when it is not one `write` made. */
  read(text: string): Buffer | null {
    const [body, checksum, ...rest] = text.split('.');
    if (!body || rest.length > 0) return null;
    const bytes = Buffer.from(body, 'base64url');
    return checksum === pageTokenChecksum(bytes) ? bytes : null;
  },
};

function pageTokenChecksum(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64url').slice(0, 12);
}
