import { apiComponents } from '../../common/api-contract/components';
import { adminKeyScheme, adminPaths } from './admin-paths';
import { auditPaths } from './audit-paths';
import { jobPaths } from './job-paths';
import { pagePaths } from './page-paths';
import { pushPaths } from './push-paths';
import { schedulePaths } from './schedule-paths';
import { socketPaths } from './socket-paths';
import { speechCallbackPaths } from './speech-callback-paths';
import { bodyRef, type Schema } from './refs';
import { errors, json } from './responses';

const DESCRIPTION = `Slowlane runs slow AI steps (invoice extraction, order scoring, support-ticket digests, …: one job type each) durably on Temporal,
outside the HTTP request. Submit a job (a file, or a JSON input), then follow the job by polling \`GET /jobs/{id}\` (honour \`Retry-After\`), by Server-Sent
Events on \`GET /jobs/{id}/events\`, many jobs at once over the WebSocket \`GET /events/socket\`, by signed webhooks to a \`callbackUrl\`, or as Web Push notifications (\`POST /push/subscriptions\`). Errors are
\`{ "error": { "code", "message", "details" } }\` with a stable code. A method a path does not list here answers \`405 method_not_allowed\`
with an \`Allow\` header naming the methods it has. See docs/clients.md.`;

/** The webhooks Slowlane sends (OpenAPI 3.1 `webhooks`): Standard Webhooks headers, HMAC-SHA256 with the tenant secret. */
const webhooks: Record<string, Schema> = {
  jobEvent: {
    post: {
      operationId: 'receiveJobEvent',
      summary: 'A job reached awaiting_review, a final status (posted, completed, rejected, cancelled, …), a dead letter, or budget_wait (its tenant’s spend cap)',
      description:
        'Sent to the job’s callbackUrl (or the tenant’s default), retried with backoff for 24 hours until a 2xx. The same event keeps its `webhook-id` across retries: deduplicate on it. ' +
        'Verify with any Standard Webhooks library and the tenant’s `whsec_…` secret.',
      tags: ['webhooks'],
      security: [],
      parameters: [
        { name: 'webhook-id', in: 'header', required: true, schema: { type: 'string' } },
        { name: 'webhook-timestamp', in: 'header', required: true, description: 'Unix seconds when this attempt was signed.', schema: { type: 'string' } },
        { name: 'webhook-signature', in: 'header', required: true, description: '`v1,<base64 HMAC-SHA256 of id.timestamp.body>`', schema: { type: 'string' } },
      ],
      requestBody: { required: true, content: json(bodyRef('WebhookEvent')) },
      responses: {
        '200': { description: 'Any 2xx: received; no more attempts for this event.' },
        '410': { description: 'Gone: this receiver never wants these events; delivery stops.' },
      },
    },
  },
};

/** What a Web Push subscriber reads from each push (api/openapi/push-paths.ts registers it). */
const pushMessage: Schema = {
  post: {
    operationId: 'receivePushMessage',
    summary: 'A followed job waits for review or ended, or a new review task arrived (Web Push)',
    description:
      'Sent through the subscriber’s push service (RFC 8030), encrypted for the subscription (RFC 8291, `Content-Encoding: aes128gcm`) and signed with the VAPID key of `GET /push/vapid-public-key` (RFC 8292). ' +
      'The body below is what the browser hands the service worker after decrypting it (`event.data.json()`). Retried for 24 hours on a push service’s 429, 5xx or network error; a 404 or 410 removes the subscription.',
    tags: ['push'],
    security: [],
    requestBody: { required: true, content: json(bodyRef('PushMessage')) },
    responses: {
      '201': { description: 'The push service accepted it (any 2xx).' },
      '410': { description: 'Gone: the subscription expired or was revoked; it is removed.' },
    },
  },
};

/**
 * Node's HTTP parser refuses a request line plus headers over its limit (16 KB) before any route runs; the server
 * answers it in the documented error shape (api/server.ts), so every operation can give it.
 */
function withHeaderLimit(paths: Record<string, Schema>): Record<string, Schema> {
  const tooLarge = errors[431];
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => [
          method,
          { ...(operation as Schema), responses: { ...((operation as Schema).responses as Schema), '431': tooLarge } },
        ]),
      ),
    ]),
  );
}

/** Every path the API serves and the operations on it, as the document lists them. */
export function documentedPaths(): Record<string, Schema> {
  return withHeaderLimit({ ...jobPaths, ...socketPaths, ...pushPaths, ...schedulePaths, ...auditPaths, ...pagePaths, ...adminPaths, ...speechCallbackPaths });
}

/**
 * The whole contract: every route the API serves, its errors, and the webhooks it sends. Its bodies are the API
 * contract's schema objects themselves (common/api-contract), the ones the request validators are compiled from.
 */
export function openApiDocument(options: { serverUrl: string }): Schema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Slowlane API',
      version: '1.0.0',
      description: DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: options.serverUrl, description: 'This deployment' }],
    tags: [
      { name: 'jobs', description: 'Submit documents and follow their jobs.' },
      { name: 'review', description: 'Decisions on jobs awaiting review.' },
      { name: 'schedules', description: 'Jobs started on a timetable (Temporal Schedules).' },
      { name: 'push', description: 'Web Push to browsers and apps: subscriptions for a job or the review queue.' },
      { name: 'reviewer page', description: 'The reviewer web page at /review and its assets.' },
      { name: 'audit', description: 'Who decided, erased, replayed or abandoned what, and when.' },
      { name: 'admin', description: 'Operations: dead letters, retries, replays, the audit trail of every tenant (admin key).' },
      { name: 'meta', description: 'Health and this document.' },
      { name: 'webhooks', description: 'What Slowlane sends to callback URLs.' },
    ],
    paths: documentedPaths(),
    webhooks: { ...webhooks, pushMessage },
    components: {
      schemas: apiComponents,
      securitySchemes: {
        adminKey: adminKeyScheme,
        apiKey: { type: 'http', scheme: 'bearer', description: 'A tenant’s API key (SLOWLANE_TENANTS; `npm start` prints the local one).' },
        socketToken: {
          type: 'apiKey',
          in: 'query',
          name: 'token',
          description: 'A short-lived, single-use token from `POST /events/socket/tokens`; only the WebSocket upgrade takes it.',
        },
        reviewerToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A reviewer’s own token (listed with their tenant in SLOWLANE_TENANTS) or an OIDC identity token whose roles claim has `reviewer`: reading jobs and reviewing only. The reviewer recorded with a decision is this identity.',
        },
      },
    },
  };
}
