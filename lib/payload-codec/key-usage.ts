import { Counter, type Registry } from 'prom-client';
import { METRIC_PREFIX } from '../metrics';

/**
 * AES-GCM with random 96-bit nonces stays within a 2^-32 chance of a repeated nonce only while one key encrypts
 * at most 2^32 messages; a repeat reveals the XOR of two plaintexts and lets the authentication key be forged.
 */
export const GCM_RANDOM_NONCE_LIMIT = 2 ** 32;

type Listener = (keyId: string, count: number) => void;

/** Payloads and object data keys (lib/object-envelope.ts) this process has encrypted under each key id since it started. */
export class KeyUsage {
  readonly #counts = new Map<string, number>();
  readonly #listeners = new Set<Listener>();

  record(keyId: string, count: number): void {
    this.#counts.set(keyId, (this.#counts.get(keyId) ?? 0) + count);
    for (const listener of this.#listeners) listener(keyId, count);
  }

  count(keyId: string): number {
    return this.#counts.get(keyId) ?? 0;
  }

  counts(): ReadonlyMap<string, number> {
    return this.#counts;
  }

  onRecord(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** One per process: every codec the process makes reports here, so its metric and warning see all of them. */
export const processKeyUsage = new KeyUsage();

/** `slowlane_payload_encryptions_total{key_id}`: Prometheus sums it across the fleet (deploy/alerts/slowlane-rules.yaml). */
export function registerKeyUsageMetric(registry: Registry, usage: KeyUsage = processKeyUsage): void {
  const counter = new Counter({
    name: `${METRIC_PREFIX}payload_encryptions_total`,
    help: 'Payloads and object data keys this process encrypted, by codec key id; a key must encrypt fewer than 2^32 in all processes together',
    labelNames: ['key_id'],
    registers: [registry],
  });
  for (const [keyId, count] of usage.counts()) counter.inc({ key_id: keyId }, count);
  usage.onRecord((keyId, count) => counter.inc({ key_id: keyId }, count));
}

export interface KeyUsageWatch {
  usage?: KeyUsage;
  /** PAYLOAD_CODEC_KEY_WARN_ENCRYPTIONS */
  threshold: number;
  log: { warn(fields: object, message: string): void };
}

/**
 * Warns once per key when this process alone has encrypted `threshold` payloads under it. A process sees only its
 * own count since it started; the fleet's total is the alert rule's sum of the metric above.
 */
export function warnOnKeyUsage({ usage = processKeyUsage, threshold, log }: KeyUsageWatch): () => void {
  const warned = new Set<string>();
  return usage.onRecord((keyId) => {
    const count = usage.count(keyId);
    if (count < threshold || warned.has(keyId)) return;
    warned.add(keyId);
    log.warn(
      { keyId, encryptions: count, threshold, limit: GCM_RANDOM_NONCE_LIMIT },
      'payload key has encrypted many payloads in this process alone: rotate it (npm run codec-key -- rotate, docs/security.md#key-rotation)',
    );
  });
}
