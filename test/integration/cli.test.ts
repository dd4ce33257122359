import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, test } from '@jest/globals';
import { getJob, ledgerEntries } from '../support/api-client';
import { slowlane } from '../support/cli';
import type { JobProgress } from '../../common/job';
import { renderLongDocument } from '../../local/samples/long-document';
import { sampleWith } from '../support/samples';

interface Outcome {
  file: string;
  jobId?: string;
  status: string;
  replayed?: boolean;
  ledgerEntryId?: string;
}

describe('the client CLI: npx slowlane', () => {
  let folder: string;
  beforeAll(async () => {
    // A backfill folder: PDFs and a text invoice, one in a subfolder, and a file that is not a document.
    folder = await mkdtemp(join(tmpdir(), 'slowlane-cli-'));
    await mkdir(join(folder, '2026-11'));
    const clean = await sampleWith('posted');
    const ambiguous = await sampleWith('awaiting_review');
    const text = await sampleWith('posted', false);
    await writeFile(join(folder, clean.fileName), clean.bytes);
    await writeFile(join(folder, '2026-11', ambiguous.fileName), ambiguous.bytes);
    await writeFile(join(folder, text.fileName), text.bytes);
    await writeFile(join(folder, 'notes.md'), '# not an invoice, not a PDF\n');
  });

  test('when a folder is submitted with --wait, then every document becomes a job and the results are printed', async () => {
    const run = await slowlane(['submit', folder, '--wait', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const outcomes = JSON.parse(run.stdout) as Outcome[];
    assert.equal(outcomes.length, 3, 'the .md file is skipped, the subfolder is included');
    assert.ok(outcomes.every((o) => o.jobId?.startsWith('invoice:demo:sha256-')), JSON.stringify(outcomes));
    const byFile = (name: string) => outcomes.find((o) => o.file.endsWith(name));
    assert.equal(byFile('2026-11/' + (await sampleWith('awaiting_review')).fileName)?.status, 'awaiting_review');
    const posted = byFile((await sampleWith('posted')).fileName);
    assert.equal(posted?.status, 'posted');
    assert.ok(posted?.ledgerEntryId);
    assert.match(run.stderr, /waiting \d+s: /, 'progress is shown while waiting');

    // Run again: the keys come from the content, so the same jobs answer and nothing is posted twice.
    const again = await slowlane(['submit', folder, '--json']);
    assert.equal(again.code, 0, again.stderr);
    const repeated = JSON.parse(again.stdout) as Outcome[];
    assert.deepEqual(repeated.map((o) => o.jobId).sort(), outcomes.map((o) => o.jobId).sort());
    assert.ok(repeated.every((o) => o.replayed === true));
    assert.equal((await ledgerEntries(posted?.jobId as string)).length, 1);
  });

  test('when a file is submitted with --priority bulk, then the job runs on the bulk queue and the table shows its result', async () => {
    const text = await sampleWith('posted', false);
    const unique = join(await mkdtemp(join(tmpdir(), 'slowlane-cli-')), 'bulk-invoice.txt');
    await writeFile(unique, Buffer.concat([Buffer.from(text.bytes), Buffer.from(`\nReference: ${randomUUID()}\n`)]));
    const run = await slowlane(['submit', unique, '--priority', 'bulk', '--wait']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^FILE\s+JOB\s+STATUS\s+DETAIL$/m);
    const jobId = /(invoice:demo:sha256-[0-9a-f]+)/.exec(run.stdout)?.[1];
    assert.ok(jobId, run.stdout);
    const job = (await getJob(jobId)).body;
    assert.equal(job.priority, 'bulk');
    assert.match(run.stdout, new RegExp(`${job.status}`));
  });

  test('when a long PDF is submitted with --type document --wait, then its progress is printed as it advances and the job completes', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'slowlane-cli-')), 'report.pdf');
    await writeFile(file, await renderLongDocument(12));
    const run = await slowlane(['submit', file, '--type', 'document', '--wait', '--json'], { timeoutMs: 240_000 });
    assert.equal(run.code, 0, run.stderr);
    const [outcome] = JSON.parse(run.stdout) as Array<Outcome & { progress?: JobProgress }>;
    assert.match(outcome?.jobId ?? '', /^document:demo:/);
    assert.equal(outcome?.status, 'completed', run.stderr);
    const chunks = outcome?.progress?.total ?? 0;
    assert.ok(chunks > 0, JSON.stringify(outcome));
    assert.equal(outcome?.progress?.done, chunks);
    // The last progress line the CLI printed is the finished one, with the tokens and cost of every call.
    const lines = run.stderr.split('\n').filter((line) => line.startsWith(`${outcome?.jobId}: 12 pages read`));
    const usage = outcome?.progress?.usage;
    assert.ok(usage && usage.calls > 0, JSON.stringify(outcome));
    const tokens = usage.inputTokens + usage.outputTokens;
    assert.equal(lines.at(-1), `${outcome?.jobId}: 12 pages read · ${chunks}/${chunks} chunks · ${tokens.toLocaleString('en-US')} tokens · $${usage.costUsd.toFixed(4)}`, run.stderr);
  }, 300_000);

  test('when status is asked for a job, then it prints it; an unknown job exits 1 with the API error', async () => {
    const text = await sampleWith('posted', false);
    const submitted = JSON.parse((await slowlane(['submit', join(folder, text.fileName), '--json', '--wait'])).stdout) as Outcome[];
    const jobId = submitted[0]?.jobId as string;
    const run = await slowlane(['status', jobId]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^job\\s+${jobId}$`, 'm'));
    assert.match(run.stdout, /^status\s+(posted|awaiting_review)/m);
    assert.match(run.stdout, /^temporal\s+http/m);

    const missing = await slowlane(['status', `invoice:demo:${randomUUID()}`]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /not_found/);
  });

  test('when the command line is wrong, then usage is printed and the exit code is 2', async () => {
    const run = await slowlane(['submit', '--priority', 'urgent', folder]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--priority must be one of interactive, bulk/);
    assert.match(run.stderr, /Usage:/);
  });
});
