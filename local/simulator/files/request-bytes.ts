/** Bytes of request bodies the simulator received, by endpoint: what a client sent the provider. */
export interface RequestBytes {
  messages: number;
  countTokens: number;
  batches: number;
  files: number;
  other: number;
}

export const emptyRequestBytes = (): RequestBytes => ({ messages: 0, countTokens: 0, batches: 0, files: 0, other: 0 });

export function requestBytesKind(pathname: string): keyof RequestBytes {
  if (pathname === '/v1/messages') return 'messages';
  if (pathname === '/v1/messages/count_tokens') return 'countTokens';
  if (pathname.startsWith('/v1/messages/batches')) return 'batches';
  if (pathname.startsWith('/v1/files')) return 'files';
  return 'other';
}
