import type { Config } from '../config';
import type { ProviderFileRemover } from './job-provider-files';

const ANTHROPIC_URL = 'https://api.anthropic.com';
const FILES_API_BETA = 'files-api-2025-04-14';
const API_VERSION = '2023-06-01';

interface FileListPage {
  data: Array<{ id: string; filename: string; created_at: string }>;
  has_more?: boolean;
  last_id?: string | null;
}

/**
 * Deleting and listing on the provider's Files API for the API process, which erases jobs (DELETE /jobs/:id) but
 * holds no model gateway (the workers' uploads go through gateway/files/provider-files.ts). Plain HTTP: the two
 * calls need nothing of the SDK, and the API stays out of the gateway's layer.
 */
export function filesApiRemover(config: Pick<Config['anthropic'], 'apiKey' | 'baseURL' | 'requestTimeoutMs'>): ProviderFileRemover {
  const base = (config.baseURL ?? ANTHROPIC_URL).replace(/\/$/, '');
  const headers = () => ({ 'x-api-key': config.apiKey.reveal(), 'anthropic-version': API_VERSION, 'anthropic-beta': FILES_API_BETA });
  const call = async (method: string, path: string): Promise<Response> => {
    const response = await fetch(`${base}${path}`, { method, headers: headers(), signal: AbortSignal.timeout(config.requestTimeoutMs) });
    if (!response.ok && response.status !== 404) throw new Error(`Files API ${method} ${path} answered ${response.status}: ${await response.text()}`);
    return response;
  };
  return {
    async delete(fileId) {
      await call('DELETE', `/v1/files/${encodeURIComponent(fileId)}`);
    },
    async *list() {
      let after: string | undefined;
      for (;;) {
        const response = await call('GET', `/v1/files?limit=100${after ? `&after_id=${encodeURIComponent(after)}` : ''}`);
        const page = (await response.json()) as FileListPage;
        for (const file of page.data) yield { id: file.id, filename: file.filename, createdAt: file.created_at };
        const last = page.last_id ?? page.data.at(-1)?.id;
        if (!page.has_more || !last) return;
        after = last;
      }
    },
  };
}
