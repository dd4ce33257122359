import type { ApiError } from './api-errors';

export interface HttpReply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** A body sent as it is instead of as JSON (the batch results' JSONL). */
  raw?: { contentType: string; text: string };
}

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): HttpReply {
  return { status, body, headers };
}

export function errorReply(error: ApiError): HttpReply {
  return { status: error.status, body: error.body, headers: error.headers };
}
