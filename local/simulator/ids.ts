import type { Random } from './random';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Ids shaped like the provider's (`msg_…`, `toolu_…`, `req_…`), from the given random source. */
export function createIdGenerator(random: Random): (prefix: 'msg' | 'toolu' | 'req' | 'msgbatch' | 'file') => string {
  return (prefix) => {
    let suffix = '';
    for (let index = 0; index < 24; index += 1) suffix += ALPHABET[Math.floor(random.next() * ALPHABET.length)];
    return `${prefix}_${suffix}`;
  };
}
