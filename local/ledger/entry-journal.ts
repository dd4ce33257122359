import { mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../lib/logger';
import { isLedgerEntry, type LedgerEntry } from './ledger-entry';

export const JOURNAL_FILE_NAME = 'entries.jsonl';

/** The journal cannot be trusted (a bad line before the last one); the service refuses to start on it. */
export class JournalCorruptError extends Error {
  override readonly name = 'JournalCorruptError';
}

/**
 * Append-only JSON-lines file of entries, one per line, fsync'd before an append resolves, so an
 * entry the service has acknowledged survives a crash. Plain files keep the service free of native
 * addons. Appends are serialized so lines never interleave and the known-good size is always exact.
 */
export class EntryJournal {
  private appendQueue: Promise<void> = Promise.resolve();
  /** Set after a failed write that could not be rolled back: appending past a torn line would corrupt the file. */
  private brokenBy: Error | undefined;

  private constructor(
    private readonly handle: FileHandle,
    private readonly filePath: string,
    private committedSize: number,
  ) {}

  /** Opens (creating if needed) the journal in `dataDir` and returns it with the entries already in it, oldest first. */
  static async open(input: {
    dataDir: string;
    log: Logger;
  }): Promise<{ journal: EntryJournal; entries: LedgerEntry[] }> {
    await mkdir(input.dataDir, { recursive: true });
    const filePath = path.join(input.dataDir, JOURNAL_FILE_NAME);
    // 'a+' creates the file and lets us read it; writes always go to the end whatever the position.
    const handle = await open(filePath, 'a+');
    try {
      const content = await handle.readFile();
      const { entries, validSize } = parseJournal(content, filePath, input.log);
      if (validSize < content.length) {
        // Cut the torn tail now, or the next append would glue a good line onto it.
        await handle.truncate(validSize);
        await handle.sync();
      }
      await syncDirectory(input.dataDir);
      return { journal: new EntryJournal(handle, filePath, validSize), entries };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  append(entry: LedgerEntry): Promise<void> {
    const line = Buffer.from(`${JSON.stringify(entry)}\n`, 'utf8');
    const result = this.appendQueue.then(() => this.writeDurably(line));
    // The queue only orders writes; each caller sees its own failure through `result`.
    this.appendQueue = result.catch(() => undefined);
    return result;
  }

  /** Waits for pending appends, then releases the file. */
  async close(): Promise<void> {
    await this.appendQueue;
    await this.handle.close();
  }

  private async writeDurably(line: Buffer): Promise<void> {
    if (this.brokenBy) {
      throw new Error(`journal ${this.filePath} is unusable after an earlier write failure: ${this.brokenBy.message}`);
    }
    try {
      await this.handle.appendFile(line);
      await this.handle.sync();
      this.committedSize += line.length;
    } catch (error) {
      await this.rollBackTo(this.committedSize, error);
      throw error;
    }
  }

  private async rollBackTo(size: number, cause: unknown): Promise<void> {
    try {
      await this.handle.truncate(size);
      await this.handle.sync();
    } catch {
      this.brokenBy = cause instanceof Error ? cause : new Error(String(cause));
    }
  }
}

interface ParsedJournal {
  entries: LedgerEntry[];
  /** Bytes up to the end of the last good line: what the file should be cut to. */
  validSize: number;
}

/**
 * A crash during an append can leave the last line torn (no newline, or cut mid-JSON); that entry was
 * never acknowledged, so it is dropped with a warning. A bad line anywhere else means the file was
 * damaged some other way, and guessing would risk a double post, so loading stops.
 */
function parseJournal(content: Buffer, filePath: string, log: Logger): ParsedJournal {
  const entries: LedgerEntry[] = [];
  const seenKeys = new Set<string>();
  let offset = 0;
  let lineNumber = 0;
  while (offset < content.length) {
    lineNumber += 1;
    const newline = content.indexOf(0x0a, offset);
    const lineEnd = newline === -1 ? content.length : newline;
    const isLastLine = newline === -1 || newline === content.length - 1;
    const entry = parseLine(content.subarray(offset, lineEnd));
    if (entry === undefined || newline === -1) {
      if (!isLastLine) {
        throw new JournalCorruptError(
          `${filePath} line ${lineNumber} is not a ledger entry; the file is damaged before its end. ` +
            'Restore it from a backup or move it aside to start an empty ledger.',
        );
      }
      log.warn(
        { filePath, lineNumber, bytesDropped: content.length - offset },
        'ignoring a torn last journal line (an append interrupted by a crash; it was never acknowledged)',
      );
      return { entries, validSize: offset };
    }
    if (seenKeys.has(entry.idempotencyKey)) {
      throw new JournalCorruptError(
        `${filePath} line ${lineNumber} repeats idempotency key "${entry.idempotencyKey}"; the file was edited or merged.`,
      );
    }
    seenKeys.add(entry.idempotencyKey);
    entries.push(entry);
    offset = lineEnd + 1;
  }
  return { entries, validSize: content.length };
}

function parseLine(line: Buffer): LedgerEntry | undefined {
  try {
    const value: unknown = JSON.parse(line.toString('utf8'));
    return isLedgerEntry(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Makes a newly created journal file's directory entry durable too; not every platform can open a directory. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Best effort: on platforms without directory fsync the file's own fsync is all there is.
  } finally {
    await handle?.close();
  }
}
