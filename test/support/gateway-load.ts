/**
 * One "worker process" of the shared-budget test: calls the model through the real gateway (budget from env:
 * REDIS_URL, GATEWAY_*) as fast as the budget lets it until the deadline, coming back after each refusal's
 * retryAfterMs the way Temporal would, and prints what happened as one JSON line.
 * Usage: tsx test/support/gateway-load.ts <durationMs> <concurrency> <label>
 */
import { TokenBudgetExhaustedError } from '../../common/errors';
import { gatewayFromConfig } from '../../gateway/gateway-from-config';
import { loadConfig } from '../../lib/config';
import { createLogger } from '../../lib/logger';
import { gatewayTestCall } from './gateway-calls';

async function main(): Promise<void> {
  const [durationMs = '5000', concurrency = '3', label = 'load'] = process.argv.slice(2);
  const config = loadConfig();
  const wired = gatewayFromConfig(config, createLogger('gateway-load', 'error'));
  const deadline = Date.now() + Number(durationMs);
  const counts = { calls: 0, refused: 0, failed: 0 };
  await Promise.all(
    Array.from({ length: Number(concurrency) }, async (_, lane) => {
      while (Date.now() < deadline) {
        try {
          await wired.gateway.callTool(gatewayTestCall(`${label}-${lane}-${counts.calls}`, 'bulk'));
          counts.calls += 1;
        } catch (error) {
          if (!(error instanceof TokenBudgetExhaustedError)) {
            counts.failed += 1;
            continue;
          }
          counts.refused += 1;
          await new Promise((resolve) =>
            setTimeout(resolve, Math.min(error.retryAfterMs ?? 250, Math.max(0, deadline - Date.now()))),
          );
        }
      }
    }),
  );
  await wired.close();
  process.stdout.write(`${JSON.stringify(counts)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
