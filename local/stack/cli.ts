import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../../lib/config';
import { submitSamples } from './demo';
import { submitDigestDemo } from './demo-digest';
import { LOCAL_MODE_ENV, LOCAL_PUSH_ENV, loadOrCreateLocalSecrets, localSecretsEnv } from './local-secrets';
import { localPaths } from './local-paths';
import { portIsFree, portOf } from './ports';
import { TEMPORAL_KINDS, type TemporalKind } from './postgres-temporal';
import { startStack, type Stack } from './stack';
import { devServerPorts, loadTemporalDevConfig } from './temporal-dev-config';
import { runTests } from './test-runner';

const say = (line: string) => console.log(line);

/** `npm start`: the whole local stack on the default ports, the sample invoices, and where to look. */
async function start(temporal: TemporalKind): Promise<void> {
  const startedAt = Date.now();
  // Local mode and the local credentials are set here, explicitly; the product itself has no defaults for them.
  const { dataDir } = localPaths();
  await mkdir(dataDir, { recursive: true });
  const secrets = await loadOrCreateLocalSecrets(dataDir);
  const config = loadConfig({ ...process.env, ...LOCAL_MODE_ENV, ...localSecretsEnv(secrets) });
  const devConfig = loadTemporalDevConfig();
  const ports = {
    ...devServerPorts(config.temporal, devConfig),
    s3: portOf(config.s3.endpoint ?? 'http://127.0.0.1:7070'),
    simulator: portOf(config.anthropic.baseURL ?? 'http://127.0.0.1:8787'),
    ledger: portOf(config.ledger.url),
    api: config.api.port,
  };
  const busy = [];
  for (const [name, port] of Object.entries(ports)) if (!(await portIsFree(port))) busy.push(`${name} :${port}`);
  if (busy.length > 0) {
    throw new Error(`ports in use: ${busy.join(', ')} — is another \`npm start\` running? Stop it or change the ports (docs/configuration.md).`);
  }

  say(`Slowlane local stack — data in ${config.dataDir}, logs in ${join(config.dataDir, 'logs')}`);
  const startUp = new AbortController();
  const starting = startStack({
    dataDir: config.dataDir,
    ports,
    toolCacheDir: config.toolCacheDir,
    pathEnv: process.env.PATH ?? '',
    temporal,
    secrets,
    productEnv: { ...LOCAL_PUSH_ENV },
    report: (line) => say(`  ${line}`),
    onRestart: (name, code, delayMs, crashes) =>
      say(`${name} exited unexpectedly (code ${code}); restarting it in ${delayMs / 1000}s (crash ${crashes} this minute, log in ${join(config.dataDir, 'logs', `${name}.log`)})`),
    // Everything else stays up (the API keeps answering from Temporal); the operator decides what to do.
    onUnexpectedExit: (name, code, logTail) =>
      say(
        `\n${name} keeps crashing (last exit code ${code}); it is NOT restarted again. The rest of the stack stays up.\n` +
          `Last lines of its log:\n${logTail}\nFix the cause, then Ctrl-C and \`npm start\` again.`,
      ),
    signal: startUp.signal,
  });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('\nstopping…');
    // Still starting: the abort stops what has started, and the start then fails.
    startUp.abort();
    const stack = await starting.catch(() => undefined);
    await stack?.stop();
    say('stopped. Run `npm start` again to pick up where you left off.');
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  let stack: Stack;
  try {
    stack = await starting;
  } catch (error) {
    if (stopping) return;
    throw error;
  }
  const tenant = secrets.tenants[0];
  const apiKey = tenant?.apiKey ?? '';
  const operator = secrets.operators[0];
  say(`\nready in ${((Date.now() - startedAt) / 1000).toFixed(1)}s. Submitting the sample invoices, three orders to score and a 300-page document:`);
  let jobs: Awaited<ReturnType<typeof submitSamples>>;
  let digest: Awaited<ReturnType<typeof submitDigestDemo>>;
  try {
    jobs = await submitSamples({
      apiUrl: stack.urls.api,
      apiKey,
      samplesDir: join(config.dataDir, 'samples'),
      report: say,
    });
    say('\nA day of support tickets, digested on the bulk queue, and a schedule for every morning:');
    digest = await submitDigestDemo({ apiUrl: stack.urls.api, apiKey, samplesDir: join(config.dataDir, 'samples'), report: say });
  } catch (error) {
    // Stopped meanwhile (Ctrl-C) or the API failed: either way the stack must not outlive us.
    if (!stopping) say(`\nsubmitting the samples failed: ${error instanceof Error ? error.message : String(error)}`);
    return stop(1);
  }
  if (stopping) return;

  const ui = stack.urls.temporalUi;
  const documentJob = jobs.find((job) => job.jobId.startsWith('document:'));
  const documentPath = documentJob ? `${stack.urls.api}/jobs/${encodeURIComponent(documentJob.jobId)}` : undefined;
  say(`
Where to look
  API               ${stack.urls.api}   (tenant "${tenant?.id}", header: Authorization: Bearer ${apiKey})
  Jobs              curl -H 'Authorization: Bearer ${apiKey}' '${stack.urls.api}/jobs'
  Awaiting review   curl -H 'Authorization: Bearer ${apiKey}' '${stack.urls.api}/jobs?status=awaiting_review'
  Reviewer page     ${stack.urls.api}/review   (sign in as ${tenant?.reviewers.map((reviewer) => `${reviewer.id} with ${reviewer.token}`).join(', or ')})
  Temporal Web UI   ${ui ? `${ui}/namespaces/${stack.namespace}/workflows` : temporal === 'cluster' ? '(none: the cluster runs without the UI server)' : '(disabled in temporal-dev.yaml)'}
  Ticket digest     curl -H 'Authorization: Bearer ${apiKey}' '${stack.urls.api}/jobs/${encodeURIComponent(digest.jobId ?? '<jobId>')}'
  Schedules         curl -H 'Authorization: Bearer ${apiKey}' '${stack.urls.api}/schedules'
                    run one now: SLOWLANE_API_KEY=${apiKey} npx slowlane schedule trigger ${digest.scheduleId ?? '<id>'}   (npx slowlane schedule --help)
                    ${ui ? `${ui}/namespaces/${stack.namespace}/schedules` : ''}   temporal schedule list --address ${stack.urls.temporal}
  Ledger entries    ${stack.urls.ledger}/entries
  Long document     ${documentPath ? `curl -H 'Authorization: Bearer ${apiKey}' '${documentPath}'   (its progress; ${documentJob?.status})
                    curl -N -H 'Authorization: Bearer ${apiKey}' '${documentPath}/events'   (progress events, SSE)` : '(not submitted)'}
  Metrics           ${Object.entries(stack.metricsUrls).map(([name, url]) => `${name} ${url}`).join('\n                    ')}
  Dead letters      curl -H 'Authorization: Bearer ${operator?.token}' '${stack.urls.api}/admin/dead-letters'   (operator ${operator?.id})
  Submit your own   curl -H 'Authorization: Bearer ${apiKey}' -H 'Idempotency-Key: my-first-job' \\
                         -F type=invoice -F file=@invoice.pdf ${stack.urls.api}/jobs
  The CLI           export SLOWLANE_API_KEY=${apiKey}; npx slowlane submit invoice.pdf --wait
  Credentials       ${join(config.dataDir, 'local-secrets.json')} (generated for this data folder; delete it for new ones)

${jobs.filter((job) => job.status === 'awaiting_review').length} job(s) await review. Ctrl-C stops everything.`);
}

/** `npm start -- --temporal=cluster`: the Temporal cluster on PostgreSQL instead of the dev server (docs/deployment.md). */
function temporalKindArg(args: string[]): TemporalKind {
  const value = args.find((arg) => arg.startsWith('--temporal='))?.slice('--temporal='.length) ?? 'dev';
  if (!(TEMPORAL_KINDS as readonly string[]).includes(value)) throw new Error(`--temporal must be one of ${TEMPORAL_KINDS.join(', ')}`);
  return value as TemporalKind;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const command = args[0] === undefined || args[0].startsWith('--') ? 'start' : args[0];
  if (command === 'start') return start(temporalKindArg(args));
  if (command === 'test') return runTests(process.argv.slice(3));
  throw new Error(`unknown command "${command}"; use start or test`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
