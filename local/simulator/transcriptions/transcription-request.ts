import busboy from 'busboy';
import type { Parsed } from '../messages-request';

export const RESPONSE_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

/** The multipart form of OpenAI's `POST /v1/audio/transcriptions`, as far as the simulator reads it. */
export interface TranscriptionRequest {
  file: { bytes: Buffer; filename: string };
  model: string;
  responseFormat: ResponseFormat;
  /** `timestamp_granularities[]`: `segment` (the default) and/or `word`; only with verbose_json. */
  granularities: string[];
  language?: string;
}

/** Reads the form; a missing file or model, or an unknown format, is the API's 400. */
export function parseTranscriptionRequest(bytes: Buffer, contentType: string): Promise<Parsed<TranscriptionRequest>> {
  return new Promise((resolve) => {
    const fields = new Map<string, string[]>();
    let file: TranscriptionRequest['file'] | undefined;
    let form: busboy.Busboy;
    try {
      form = busboy({ headers: { 'content-type': contentType } });
    } catch {
      resolve({ ok: false, message: "Could not parse multipart form: the Content-Type must be 'multipart/form-data' with a boundary." });
      return;
    }
    form.on('field', (name, value) => fields.set(name, [...(fields.get(name) ?? []), value]));
    form.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (name === 'file') file = { bytes: Buffer.concat(chunks), filename: info.filename || 'audio' };
      });
    });
    form.on('error', () => resolve({ ok: false, message: 'Could not parse multipart form.' }));
    form.on('close', () => {
      const model = fields.get('model')?.[0];
      const responseFormat = fields.get('response_format')?.[0] ?? 'json';
      const granularities = fields.get('timestamp_granularities[]') ?? fields.get('timestamp_granularities') ?? [];
      const language = fields.get('language')?.[0];
      if (!file || file.bytes.length === 0) return resolve({ ok: false, message: "Missing required parameter: 'file'." });
      if (!model) return resolve({ ok: false, message: "Missing required parameter: 'model'." });
      if (!(RESPONSE_FORMATS as readonly string[]).includes(responseFormat)) {
        return resolve({ ok: false, message: `Invalid value for 'response_format': '${responseFormat}'. Supported values are: ${RESPONSE_FORMATS.join(', ')}.` });
      }
      if (granularities.some((value) => value !== 'segment' && value !== 'word')) {
        return resolve({ ok: false, message: "Invalid value for 'timestamp_granularities[]': supported values are 'segment' and 'word'." });
      }
      if (granularities.length > 0 && responseFormat !== 'verbose_json') {
        return resolve({ ok: false, message: "timestamp_granularities requires response_format 'verbose_json'." });
      }
      resolve({
        ok: true,
        value: { file, model, responseFormat: responseFormat as ResponseFormat, granularities, ...(language ? { language } : {}) },
      });
    });
    form.end(bytes);
  });
}
