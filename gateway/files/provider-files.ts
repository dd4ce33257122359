import Anthropic, { toFile } from '@anthropic-ai/sdk';
import type { ModelMediaType } from '../../common/model-media';
import { toProviderError } from '../provider-errors';

/** The beta the Files API and every Messages request naming an uploaded file must carry. */
export const FILES_API_BETA = 'files-api-2025-04-14';

export interface ProviderFile {
  id: string;
  filename: string;
  createdAt: string;
}

/**
 * The provider's Files API as the workers use it: upload a scan once, delete it when its job ends, list what is
 * left for the sweep. Errors come out typed (gateway/provider-errors.ts) so the activities' retry policies apply.
 * No token budget is drawn: an upload is not a model call and the Files API has limits of its own.
 */
export interface ProviderFiles {
  upload(file: { bytes: Buffer; filename: string; mediaType: ModelMediaType; signal?: AbortSignal }): Promise<ProviderFile>;
  /** Deleting a file that is already gone succeeds: a retried cleanup must not fail on its own earlier success. */
  delete(fileId: string): Promise<void>;
  list(): AsyncIterable<ProviderFile>;
}

export function createProviderFiles(client: Anthropic): ProviderFiles {
  const betas = [FILES_API_BETA];
  return {
    async upload({ bytes, filename, mediaType, signal }) {
      const uploaded = await typed(async () =>
        client.beta.files.upload({ file: await toFile(bytes, filename, { type: mediaType }), betas }, signal ? { signal } : undefined),
      );
      return { id: uploaded.id, filename: uploaded.filename, createdAt: uploaded.created_at };
    },
    async delete(fileId) {
      try {
        await client.beta.files.delete(fileId, { betas });
      } catch (error) {
        if (error instanceof Anthropic.NotFoundError) return;
        throw toProviderError(error) ?? error;
      }
    },
    async *list() {
      const pages = await typed(() => client.beta.files.list({ betas, limit: 100 }));
      for await (const file of pages) yield { id: file.id, filename: file.filename, createdAt: file.created_at };
    },
  };
}

async function typed<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toProviderError(error) ?? error;
  }
}
