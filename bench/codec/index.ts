import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { EncryptionCodec } from '../../lib/payload-codec/encryption-codec';
import { EnvKeyProvider } from '../../lib/payload-codec/key-provider';
import { Secret } from '../../lib/secret';
import { readBenchFlags } from '../bench-flags';

/** What crosses the codec on a job: an extracted invoice (small) and a page of extracted text (larger). */
const SAMPLES = {
  invoice: {
    invoiceNumber: 'INV-2026-0042',
    issuer: 'Acme Widgets GmbH',
    currency: 'EUR',
    totalAmount: 1234.56,
    lineItems: Array.from({ length: 10 }, (_, i) => ({ description: `Widget ${i}`, quantity: i + 1, unitPrice: 9.99 })),
  },
  text: { text: 'Invoice line with an amount 123.45 EUR and a description. '.repeat(150) },
};

const USAGE = 'usage: npm run bench -- codec [--payloads 20000]';

/**
 * `npm run bench -- codec [--payloads N]`: the cost of the payload codec per payload, against the bare payload
 * conversion every Temporal call does anyway, in the same run; the ratio is what encryption adds.
 */
export async function runCodecBenchmark(argv: string[]): Promise<void> {
  const count = readBenchFlags(argv, ['payloads'], USAGE).count('payloads', 20_000, 100);
  const codec = new EncryptionCodec(new EnvKeyProvider({ k1: new Secret(randomBytes(32).toString('base64')) }, undefined), { acceptPlaintext: false });
  const results: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(SAMPLES)) {
    const bytes = defaultPayloadConverter.toPayload(value).data?.length ?? 0;
    const bare = await timePerPayload(count, async () => defaultPayloadConverter.fromPayload(defaultPayloadConverter.toPayload(value)));
    const encrypted = await timePerPayload(count, async () => {
      const [sealed] = await codec.encode([defaultPayloadConverter.toPayload(value)]);
      const [opened] = await codec.decode([sealed as Payload]);
      return defaultPayloadConverter.fromPayload(opened as Payload);
    });
    results[name] = { bytes, bareMicros: round(bare), encryptedMicros: round(encrypted), ratio: round(encrypted / bare) };
    console.log(`${name.padEnd(8)} ${String(bytes).padStart(6)} B  convert ${bare.toFixed(1)} µs  convert+encrypt+decrypt ${encrypted.toFixed(1)} µs  ×${(encrypted / bare).toFixed(2)}`);
  }
  const out = { payloads: count, node: process.version, results };
  await writeFile(join(__dirname, '..', 'results', 'codec.json'), `${JSON.stringify(out, null, 2)}\n`);
}

/** Microseconds per round trip, after a warm-up of a tenth of the count. */
async function timePerPayload(count: number, roundTrip: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < count / 10; i++) await roundTrip();
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await roundTrip();
  return Number(process.hrtime.bigint() - start) / 1000 / count;
}

const round = (value: number) => Math.round(value * 100) / 100;
