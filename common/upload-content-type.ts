import type { ImageMediaType } from './model-media';

/** The kinds of file an upload can be, judged by its bytes (api/sniff-content-type.ts). */
export type UploadContentType = 'application/pdf' | 'text/plain' | ImageMediaType;
