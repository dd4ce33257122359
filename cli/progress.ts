import type { JobProgress } from '../common/job';

/** Where the CLI writes: results to stdout, progress to stderr (so `--json > results.json` stays clean). */
export interface Terminal {
  out(line: string): void;
  /** A progress line; on a TTY it is rewritten in place, elsewhere printed only when it changes. */
  progress(line: string): void;
  note(line: string): void;
  done(): void;
}

export function createTerminal(stdout: NodeJS.WriteStream = process.stdout, stderr: NodeJS.WriteStream = process.stderr): Terminal {
  const live = Boolean(stderr.isTTY);
  let shown = '';
  const clear = () => {
    if (live && shown) stderr.write('\r\x1b[2K');
  };
  return {
    out(line) {
      clear();
      stdout.write(`${line}\n`);
      if (live && shown) stderr.write(shown);
    },
    progress(line) {
      if (line === shown) return;
      if (live) {
        stderr.write(`\r\x1b[2K${line}`);
      } else {
        stderr.write(`${line}\n`);
      }
      shown = line;
    },
    note(line) {
      clear();
      stderr.write(`${line}\n`);
      if (live && shown) stderr.write(shown);
    },
    done() {
      if (live && shown) stderr.write('\n');
      shown = '';
    },
  };
}

/** "3 posted · 1 awaiting review · 2 processing" in a fixed order. */
export function summarize(statuses: string[]): string {
  const order = ['queued', 'processing', 'awaiting_review', 'dead_letter', 'posted', 'rejected', 'review_expired', 'failed', 'submit_failed'];
  const counts = new Map<string, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([status, count]) => `${count} ${status.replace(/_/g, ' ')}`)
    .join(' · ');
}

/** "12 pages read · 8/10 chunks · 9,120 tokens · $0.0042": a fan-out's progress in one line (parts it has). */
export function describeProgress(progress: JobProgress): string {
  const { usage } = progress;
  const failed = progress.failed ? ` (${progress.failed} failed)` : '';
  return [
    progress.pagesRead !== undefined ? `${progress.pagesRead} pages read` : undefined,
    `${progress.done}/${progress.total} ${progress.unit ?? 'batches'}${failed}`,
    usage ? `${(usage.inputTokens + usage.outputTokens).toLocaleString('en-US')} tokens · $${usage.costUsd.toFixed(4)}` : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Columns padded to their widest cell. */
export function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_cell, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ').trimEnd());
}
