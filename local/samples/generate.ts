import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { renderPdf } from './pdf-render';
import { pngOf } from './png-render';
import { SAMPLE_CATALOG } from './sample-catalog';
import type { ExpectedOutcome, SampleDocument } from './sample-document';

export interface SampleFile {
  path: string;
  fileName: string;
  expectedOutcome: ExpectedOutcome;
  description: string;
}

async function bytesOf(sample: SampleDocument): Promise<Buffer> {
  if (sample.format === 'png') return pngOf(sample.width, sample.height);
  return sample.format === 'pdf' ? renderPdf(sample) : Buffer.from(sample.text, 'utf8');
}

/**
 * Writes the demo documents into `outDir` and says what Slowlane should do with each. The bytes are
 * the same on every run: the API derives idempotency keys and S3 keys from the content hash.
 */
export async function generateSamples(outDir: string): Promise<SampleFile[]> {
  await mkdir(outDir, { recursive: true });
  const files: SampleFile[] = [];
  for (const sample of SAMPLE_CATALOG) {
    const path = join(outDir, sample.fileName);
    await writeFile(path, await bytesOf(sample));
    files.push({
      path,
      fileName: sample.fileName,
      expectedOutcome: sample.expectedOutcome,
      description: sample.description,
    });
  }
  return files;
}

async function main(argv: readonly string[]): Promise<void> {
  const outDir = argv[0];
  if (!outDir) {
    process.stderr.write('usage: tsx local/samples/generate.ts <outDir>\n');
    process.exitCode = 2;
    return;
  }
  for (const file of await generateSamples(resolve(outDir))) {
    process.stdout.write(`${file.expectedOutcome.padEnd(16)} ${file.path}\n`);
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
