import assert from '../support/assert';
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from '@jest/globals';
import { ensurePythonTool, SCHEMATHESIS } from '../../local/stack/python-tools';
import { TEST_OPERATOR, testTenant } from '../support/test-credentials';
import { testEnv } from '../support/test-env';
import { localPaths } from '../../local/stack/local-paths';
import { ticketsJsonl, ticketsOfDay } from '../../local/samples/tickets-day';

/** Bounded: at most this many generated cases per operation and phase, and the run is stopped past DEADLINE_MS. */
const MAX_EXAMPLES = Number(process.env.SCHEMATHESIS_MAX_EXAMPLES ?? 25);
/** Fixed by default so a CI failure can be replayed; SCHEMATHESIS_SEED explores others. */
const SEED = Number(process.env.SCHEMATHESIS_SEED ?? 20_261_203);
const DEADLINE_MS = 240_000;


/** Schemathesis's default for a schema-valid request, with the two statuses a file's content can earn (see configToml). */
const SUBMIT_JOB_EXPECTED_STATUSES = ['2xx', '3xx', '400', '401', '403', '404', '409', '415', '429', '5xx'];

/** The subset of Schemathesis's JSON report (`--report json`) this test reads. */
interface RunReport {
  running_time: number;
  exit_code: number;
  operations: { total: number; tested: number; errored: number };
  test_cases: { generated: number; with_failures: number; errored: number };
  failures: unknown[];
  errors: unknown[];
}

/** Two schedules of the tenant: one the `{id}` operations read, pause, resume and trigger, one DELETE may remove. */
interface FuzzSchedules {
  kept: string;
  deleted: string;
}

/**
 * A tenant's key on every operation, the operators' key on /admin (TOML strings are JSON strings). The schedule
 * operations get real ids: a schedule needs an uploaded input, which no schema-made body names, so without them
 * Schemathesis would only ever see 404s there (its `missing_test_data` warning). Their path id is not fuzzed here;
 * the fast-check tier (api-fuzz.test.ts) sends unicode and traversal ids to them.
 */
function configToml(apiKey: string, schedules: FuzzSchedules): string {
  return [
    `headers = { Authorization = ${JSON.stringify(`Bearer ${apiKey}`)} }`,
    // Event streams of running jobs stay open: read this many events, then judge what came.
    'max-stream-events = 20',
    '',
    '[[operations]]',
    'include-path-regex = "^/admin/"',
    `headers = { Authorization = ${JSON.stringify(`Bearer ${TEST_OPERATOR.token}`)} }`,
    '',
    '[[operations]]',
    'include-operation-id-regex = "^(getSchedule|pauseSchedule|resumeSchedule|triggerSchedule)$"',
    `parameters = { id = ${JSON.stringify(schedules.kept)} }`,
    '',
    '[[operations]]',
    'include-operation-id = "deleteSchedule"',
    `parameters = { id = ${JSON.stringify(schedules.deleted)} }`,
    '',
    // The one rule the document states only in words: an upload's bytes must be what its type reads (a PDF, an image
    // or UTF-8 text; a digest's tickets one JSON object a line). JSON Schema has no keyword for the content of a
    // multipart file, so a generated file may meet the documented 400 (a bad ticket line) or 415 (no such kind of file).
    // The WebSocket's path answers a plain HTTP GET that carries a token with the documented 426: only an upgrade opens it.
    '[[operations]]',
    'include-operation-id = "openJobSocket"',
    'checks.positive_data_acceptance.expected-statuses = ["426"]',
    '',
    // A push subscription's p256dh must be a point on the P-256 curve, which no JSON Schema keyword can say, and its
    // endpoint a public https URL (documented in words): a schema-made one meets the documented 400.
    '[[operations]]',
    'include-operation-id = "createPushSubscription"',
    'checks.positive_data_acceptance.expected-statuses = ["200", "201", "400", "404", "409"]',
    '',
    '[[operations]]',
    'include-operation-id = "submitJob"',
    `checks.positive_data_acceptance.expected-statuses = ${JSON.stringify(SUBMIT_JOB_EXPECTED_STATUSES)}`,
    '',
  ].join('\n');
}

/** Uploads a small day of tickets and schedules it twice, through the API as any client would. */
async function createFuzzSchedules(apiUrl: string, apiKey: string): Promise<FuzzSchedules> {
  const authorization = `Bearer ${apiKey}`;
  const form = new FormData();
  form.set('type', 'tickets.digest');
  form.set('file', new Blob([ticketsJsonl(ticketsOfDay({ day: '2026-12-02', count: 20, seed: 7 }))]), 'tickets.jsonl');
  const upload = await fetch(`${apiUrl}/jobs`, { method: 'POST', headers: { authorization, 'idempotency-key': `fuzz-schedules-${SEED}` }, body: form });
  const { jobId } = (await upload.json()) as { jobId: string };
  assert.ok([200, 202].includes(upload.status), `the schedules' input upload answered ${upload.status}`);
  const schedules = { kept: `fuzz-kept-${Date.now()}`, deleted: `fuzz-deleted-${Date.now()}` };
  for (const scheduleId of Object.values(schedules)) {
    const body = { scheduleId, type: 'tickets.digest', cron: '0 6 * * *', input: { jobId } };
    const created = await fetch(`${apiUrl}/schedules`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(created.status, 201, `POST /schedules for ${scheduleId}: ${await created.text()}`);
  }
  return schedules;
}

function run(
  command: string,
  args: string[],
  cwd: string,
  deadlineMs: number,
): Promise<{ code: number | null; output: string; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    // Its working folder is the report folder: Schemathesis keeps a cache (.schemathesis/) where it runs.
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-200_000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, deadlineMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, timedOut });
    });
  });
}

describe('the API under Schemathesis, an outside client reading /openapi.json', () => {
  test(
    'when Schemathesis runs its default checks on valid and invalid requests for every operation and follows the links between them, then it reports no failure',
    async () => {
      const { apiUrl, artifactsDir } = testEnv();
      assert.ok(apiUrl, 'the fuzz tier needs the stack that `npm test` starts');
      const schemathesis = await ensurePythonTool(
        SCHEMATHESIS,
        localPaths().toolCacheDir,
        process.env.PATH ?? '',
        (line) => console.log(line),
      );
      const reportDir = join(artifactsDir, 'schemathesis');
      await rm(reportDir, { recursive: true, force: true });
      await mkdir(reportDir, { recursive: true });
      const configFile = join(reportDir, 'schemathesis.toml');
      const apiKey = testTenant('demo').apiKey;
      await writeFile(configFile, configToml(apiKey, await createFuzzSchedules(apiUrl, apiKey)));

      const { code, output, timedOut } = await run(
        schemathesis,
        [
          '--config-file',
          configFile,
          '--no-color',
          'run',
          `${apiUrl}/openapi.json`,
          '--max-examples',
          String(MAX_EXAMPLES),
          '--seed',
          String(SEED),
          '--workers',
          '2',
          '--request-timeout',
          '10',
          '--report',
          'json,junit',
          '--report-dir',
          reportDir,
          '--generation-database',
          'none',
        ],
        reportDir,
        DEADLINE_MS,
      );
      await writeFile(join(reportDir, 'output.txt'), output);
      assert.ok(
        !timedOut,
        `Schemathesis did not finish within ${DEADLINE_MS / 1000} s; its output is in ${reportDir}/output.txt`,
      );
      const reportFile = (await readdir(reportDir)).find((name) => /^json-.*\.json$/.test(name));
      assert.ok(reportFile, `Schemathesis wrote no JSON report (exit ${code}):\n${output.slice(-3_000)}`);
      const report = JSON.parse(await readFile(join(reportDir, reportFile), 'utf8')) as RunReport;
      console.log(
        `schemathesis: ${report.operations.tested} of ${report.operations.total} operations, ${report.test_cases.generated} cases, ` +
          `${report.failures.length} failures, ${report.errors.length} errors in ${report.running_time.toFixed(1)} s (seed ${SEED})`,
      );
      const failuresAt = output.indexOf('FAILURES');
      const explain = output.slice(failuresAt >= 0 ? failuresAt : -3_000).slice(0, 6_000);
      assert.equal(report.operations.tested, report.operations.total, 'every operation in the document was tested');
      assert.ok(report.test_cases.generated >= report.operations.total, 'cases were generated for the operations');
      assert.deepEqual(
        { failures: report.failures.length, errors: report.errors.length },
        { failures: 0, errors: 0 },
        explain,
      );
      assert.equal(code, 0, explain);
    },
    DEADLINE_MS + 60_000,
  );
});
