import { filesApiRemover } from '../lib/provider-files/files-api-remover';
import { startApiObservability, startApiTracing } from '../lib/api-observability';
import { createAuditTrail } from '../lib/audit/audit-trail';
import { loadConfig } from '../lib/config';
import { createLogger } from '../lib/logger';
import { createObjectStore } from '../lib/object-store';
import { codecFor } from '../lib/payload-codec/data-converter';
import { connectClient } from '../lib/temporal-connection';
import { createAdminService } from './admin-service';
import { createJobsService } from './jobs-service';
import { createJobReader } from './jobs/job-reader';
import { createPushService } from './push/push-service';
import { createPushSubscriptions } from '../lib/push/push-subscriptions';
import { createSchedulesService } from './schedules/schedules-service';
import { speechCallbacksOf, speechProviderOf } from './speech/speech-callbacks-from-config';
import { startApiServer } from './server';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger('api', config.logLevel);
  const tracing = startApiTracing(config);
  const client = await connectClient(config.temporal);
  const observability = await startApiObservability(config, client, log, tracing);
  const store = createObjectStore(config);
  const speech = speechProviderOf({ config, log });
  const jobs = createJobsService({
    client,
    store,
    config,
    providerFiles: filesApiRemover(config.anthropic),
    speechTranscripts: speech,
  });
  const ready = async () => {
    await client.workflowService.getSystemInfo({});
    return true;
  };
  const admin = createAdminService({ client, config });
  const schedules = createSchedulesService({ client, store, config, reader: createJobReader({ client, config, store }) });
  const push = createPushService({ subscriptions: createPushSubscriptions(store), jobs, config });
  const codec = codecFor(config.temporal);
  const api = await startApiServer(
    {
      config,
      jobs,
      audit: createAuditTrail(store, log),
      log,
      ready,
      admin,
      schedules,
      push,
      metrics: observability.metrics,
      // Always mounted: it acts only on ids a worker armed and signed, which only the assemblyai shape does.
      speechCallbacks: speechCallbacksOf({ config, client, store, speech, log }),
      ...(codec ? { codec: { codec, config } } : {}),
    },
    { host: config.api.host, port: config.api.port },
  );
  log.info({ url: api.url }, 'api listening');
  const stop = async () => {
    await api.close();
    await observability.close();
    await client.connection.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
