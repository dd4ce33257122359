import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { CallProfile, CallProfileSnapshot } from './call-profile';

/** Published this often; a worker gone for four periods drops out of the fleet's profile. */
const PUBLISH_EVERY_MS = 15_000;
const KEEP_MS = 4 * PUBLISH_EVERY_MS;

function keyPattern(prefix: string): string {
  return `${prefix}:profile:*`;
}

/**
 * Every worker publishes what it observed (latency, tokens per call) so `npm run capacity` can plan from the
 * fleet's real numbers instead of the configured expectation. Returns the function that stops publishing.
 */
export function publishCallProfile(redis: Redis, prefix: string, profile: CallProfile): () => void {
  const key = `${prefix}:profile:${hostname()}:${process.pid}`;
  const publish = () => {
    const snapshot = profile.snapshot();
    if (snapshot.observedCalls === 0) return;
    redis.set(key, JSON.stringify(snapshot), 'PX', KEEP_MS).catch(() => undefined);
  };
  const timer = setInterval(publish, PUBLISH_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The fleet's profile: each worker's observations weighted by how many calls it saw; undefined when none. */
export async function readFleetProfile(redis: Redis, prefix: string): Promise<CallProfileSnapshot | undefined> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', keyPattern(prefix), 'COUNT', 100);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  const snapshots = (await Promise.all(keys.map((key) => redis.get(key))))
    .filter((value): value is string => value !== null)
    .map((value) => JSON.parse(value) as CallProfileSnapshot)
    .filter((snapshot) => snapshot.observedCalls > 0);
  const calls = snapshots.reduce((sum, snapshot) => sum + snapshot.observedCalls, 0);
  if (calls === 0) return undefined;
  const weighted = (field: keyof CallProfileSnapshot) =>
    snapshots.reduce((sum, snapshot) => sum + snapshot[field] * snapshot.observedCalls, 0) / calls;
  return {
    latencyMs: weighted('latencyMs'),
    inputTokens: weighted('inputTokens'),
    reservedOutputTokens: weighted('reservedOutputTokens'),
    outputTokens: weighted('outputTokens'),
    observedCalls: calls,
  };
}
