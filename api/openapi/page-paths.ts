import { bodyRef, type Schema } from './refs';
import { json, responses } from './responses';

interface AssetOptions {
  operationId: string;
  summary: string;
  mediaType: string;
  parameters?: Schema[];
  extraResponses?: Record<string, Schema>;
}

/** A file anyone may fetch: the page itself holds no data, the API calls it makes carry the token. */
const publicAsset = (options: AssetOptions): Schema => ({
  get: {
    operationId: options.operationId,
    summary: options.summary,
    tags: ['reviewer page'],
    security: [],
    ...(options.parameters ? { parameters: options.parameters } : {}),
    responses: responses(
      { '200': { description: options.summary, content: { [options.mediaType]: { schema: { type: 'string' } } } }, ...options.extraResponses },
      404,
    ),
  },
});

const vendorFile = (operationId: string, folder: string, mediaType = 'application/octet-stream'): Schema =>
  publicAsset({
    operationId,
    summary: `pdf.js ${folder} data`,
    mediaType,
    parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }],
  });

/** The reviewer page, its assets, health checks and this document. */
export const pagePaths: Record<string, Schema> = {
  '/review': publicAsset({ operationId: 'getReviewerPage', summary: 'The reviewer page (sign in with a reviewer token)', mediaType: 'text/html' }),
  '/review/session': {
    get: {
      operationId: 'getReviewSession',
      summary: 'Who a reviewer token belongs to',
      tags: ['reviewer page'],
      security: [{ reviewerToken: [] }, { apiKey: [] }],
      responses: responses({ '200': { description: 'The tenant and the page settings.', content: json(bodyRef('ReviewSession')) } }, 401),
    },
  },
  '/review/assets/reviewer.js': publicAsset({
    operationId: 'getReviewerScript',
    summary: 'The page’s script (bundled on first request)',
    mediaType: 'text/javascript',
    extraResponses: {
      '304': { description: 'Unchanged since the ETag sent in If-None-Match.' },
      '503': { description: '`reviewer_unavailable`: the script could not be built.', content: json(bodyRef('ErrorBody')) },
    },
  }),
  '/review/assets/reviewer.css': publicAsset({ operationId: 'getReviewerStyles', summary: 'The page’s styles', mediaType: 'text/css' }),
  '/review/vendor/pdf.mjs': publicAsset({ operationId: 'getPdfJs', summary: 'pdf.js (pdfjs-dist 5)', mediaType: 'text/javascript' }),
  '/review/vendor/pdf.worker.mjs': publicAsset({ operationId: 'getPdfJsWorker', summary: 'The pdf.js worker', mediaType: 'text/javascript' }),
  '/review/vendor/standard_fonts/{file}': vendorFile('getPdfJsStandardFont', 'standard_fonts'),
  '/review/vendor/cmaps/{file}': vendorFile('getPdfJsCMap', 'cmaps'),
  // WebAssembly decoders with their JavaScript fallbacks and licence files, each with its own type.
  '/review/vendor/wasm/{file}': vendorFile('getPdfJsWasm', 'wasm', '*/*'),
  '/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      tags: ['meta'],
      security: [],
      responses: responses({ '200': { description: 'OpenAPI 3.1', content: json({ type: 'object', required: ['openapi', 'paths'], properties: { openapi: { const: '3.1.0' }, paths: { type: 'object' } } }) } }),
    },
  },
  '/healthz': {
    get: {
      operationId: 'getHealth',
      summary: 'The process is up',
      tags: ['meta'],
      security: [],
      responses: responses({ '200': { description: 'Alive.', content: json(bodyRef('Health')) } }),
    },
  },
  '/readyz': {
    get: {
      operationId: 'getReadiness',
      summary: 'The API can reach Temporal',
      tags: ['meta'],
      security: [],
      responses: {
        '200': { description: 'Ready.', content: json(bodyRef('Health')) },
        '503': { description: 'Temporal does not answer.', content: json(bodyRef('Health')) },
      },
    },
  },
};
