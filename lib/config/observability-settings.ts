import { setting, type SettingsArea } from '../settings/setting';
import { bool, duration, int, text, url } from '../settings/setting-types';

/** Prometheus endpoints and traces (docs/operations.md). */
export const observabilityArea = {
  title: 'Metrics and traces',
  settings: {
    metricsEnabled: setting({
      env: 'METRICS_ENABLED',
      type: bool(),
      default: 'true',
      doc: 'serve Prometheus `/metrics`',
    }),
    metricsHost: setting({
      env: 'METRICS_HOST',
      type: text(),
      default: '127.0.0.1',
      doc: 'where `/metrics` listens (`0.0.0.0` in a pod so Prometheus can scrape it)',
    }),
    apiMetricsPort: setting({
      env: 'API_METRICS_PORT',
      type: int({ min: 0, max: 65535 }),
      default: '9464',
      doc: "the API process's `/metrics` port (`0` = any free port, logged)",
    }),
    workerMetricsPort: setting({
      env: 'WORKER_METRICS_PORT',
      type: int({ min: 0, max: 65535 }),
      default: '9465',
      doc: "a worker process's `/metrics` port (`0` = any free port, logged)",
    }),
    temporalStatsCacheMs: setting({
      env: 'METRICS_TEMPORAL_CACHE',
      type: duration(),
      default: '10s',
      // Several scrapers must not flood the server, which caches backlog stats ~5 s itself.
      doc: 'how long backlog and job counts read from Temporal are reused between scrapes',
    }),
    describeStatsCacheMs: setting({
      env: 'METRICS_DESCRIBE_CACHE',
      type: duration(),
      default: '1m',
      // One Temporal call per schedule: what these show matters over minutes, so they need not follow every scrape.
      doc: "how long readings that take one Temporal call per schedule or batch-lane workflow (skipped runs, the lane's oldest waiting entry) are reused between scrapes",
    }),
    otlpEndpoint: setting({
      env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
      type: url(),
      doc: 'OTLP/HTTP collector base URL, e.g. `http://otel-collector:4318`; traces are off without it',
    }),
    serviceName: setting({
      env: 'OTEL_SERVICE_NAME',
      type: text(),
      default: 'slowlane',
      doc: 'spans carry `service.name` `<this>-api` or `<this>-worker`',
    }),
  },
} satisfies SettingsArea;
