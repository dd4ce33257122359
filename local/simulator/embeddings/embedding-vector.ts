import { createHash } from 'node:crypto';

/**
 * A deterministic stand-in for a learned embedding: feature hashing of the text's words (each word adds ±1 to a
 * dimension picked by its hash), normalised to unit length. The same text always gets the same vector, and texts
 * that share words point the same way, so cosine search over the simulator's vectors finds related chunks.
 */
export function embeddingOf(text: string, dimension: number): number[] {
  const vector = new Array<number>(dimension).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    const digest = createHash('sha256').update(word).digest();
    const index = digest.readUInt32BE(0) % dimension;
    vector[index] = (vector[index] ?? 0) + (digest[4] !== undefined && digest[4] & 1 ? 1 : -1);
  }
  const norm = Math.hypot(...vector);
  if (norm === 0) {
    // No words (punctuation only): a fixed direction derived from the text, still unit length.
    const index = createHash('sha256').update(text).digest().readUInt32BE(0) % dimension;
    vector[index] = 1;
    return vector;
  }
  // Six decimals: what a float32 carries, and it keeps the JSON short.
  return vector.map((value) => Math.round((value / norm) * 1e6) / 1e6);
}
