import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSamples } from '../../local/samples/generate';

export interface LoadedSample {
  fileName: string;
  bytes: Uint8Array;
  expectedOutcome: 'posted' | 'awaiting_review' | 'rejected';
}

let loaded: Promise<LoadedSample[]> | undefined;

/** The project's demo documents, generated once per test process. */
export function samples(): Promise<LoadedSample[]> {
  loaded ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'slowlane-samples-'));
    try {
      const files = await generateSamples(dir);
      return await Promise.all(
        files.map(async (file) => ({
          fileName: file.fileName,
          expectedOutcome: file.expectedOutcome,
          bytes: new Uint8Array(await readFile(file.path)),
        })),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return loaded;
}

export async function sampleWith(outcome: LoadedSample['expectedOutcome'], pdf = true): Promise<LoadedSample> {
  const found = (await samples()).find(
    (sample) => sample.expectedOutcome === outcome && sample.fileName.endsWith(pdf ? '.pdf' : '.txt'),
  );
  if (!found) throw new Error(`no ${pdf ? 'PDF' : 'text'} sample with outcome ${outcome}`);
  return found;
}
