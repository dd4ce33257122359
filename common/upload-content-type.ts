import type { ImageMediaType } from './model-media';

/** The recordings a call job takes, by container (api/sniff-content-type.ts): M4A is `audio/mp4`, raw ADTS `audio/aac`. */
export type AudioContentType = 'audio/wav' | 'audio/mpeg' | 'audio/mp4' | 'audio/aac' | 'audio/ogg' | 'audio/flac';

/** The kinds of file an upload can be, judged by its bytes (api/sniff-content-type.ts). */
export type UploadContentType = 'application/pdf' | 'text/plain' | ImageMediaType | AudioContentType;
