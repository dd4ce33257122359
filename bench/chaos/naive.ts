import { createHash } from 'node:crypto';
import type { Logger } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import { gatewayFromConfig } from '../../gateway/gateway-from-config';
import { loadConfig } from '../../lib/config';
import { createLogger } from '../../lib/logger';
import { createObjectStore, objectKeys } from '../../lib/object-store';
import { createActivityDeps } from '../../workers/activity-deps';
import type { ScoreOrderInput } from '../../activities/order-score/contracts';
import type { JobKind } from './job-mix';

/** The user sees the error; the activity's own error log line would only repeat it on the console. */
const SILENT: Logger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

export interface NaiveFigures {
  requests: number;
  /** Requests that answered with an error: the user sees a failure and must try again. */
  userFacingErrors: number;
  errorRate: number;
  /** Which step threw, and how often. */
  errorsByStep: Record<string, number>;
  posted: number;
  /** Orders scored and decided in the request (approve or decline). */
  completed: number;
  /** Ambiguous documents: the in-request way can only answer "needs a person", it cannot wait for one. */
  needsReview: number;
  rejected: number;
}

/**
 * The same jobs the synchronous way (the `latency` benchmark’s naive path): the four steps called one after another
 * inside the request, no Temporal, against the same simulator and ledger with the same faults. The Anthropic SDK's
 * own retries are on (its default, 2), as an application without a durable engine would run it.
 */
export async function runNaive(
  productEnv: Record<string, string>,
  plan: JobKind[],
  runId: string,
  concurrency: number,
  /** No new request starts after this moment (epoch ms): the run's budget. */
  stopAt: number,
): Promise<NaiveFigures> {
  const config = loadConfig({ ...productEnv, ANTHROPIC_MAX_RETRIES: '2' });
  const wired = gatewayFromConfig(config, createLogger('bench', 'silent'));
  const activities = createActivities(createActivityDeps(config, wired));
  const store = createObjectStore(config);
  const figures: NaiveFigures = {
    requests: 0,
    userFacingErrors: 0,
    errorRate: 0,
    errorsByStep: {},
    posted: 0,
    completed: 0,
    needsReview: 0,
    rejected: 0,
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < plan.length && Date.now() < stopAt) {
        const index = next++;
        const kind = plan[index] as JobKind;
        const input = await kind.form(index, runId);
        figures.requests++;
        let step = 'upload';
        try {
          const env = new MockActivityEnvironment({}, { logger: SILENT });
          const call = <A, R>(name: string, activity: (input: A) => Promise<R>, input: A): Promise<R> => {
            step = name;
            return env.run(activity, input) as Promise<R>;
          };
          if ('json' in input) {
            const job = { jobId: `order.score:demo:naive-${runId}-${index}`, tenantId: 'demo', priority: kind.priority };
            const order = input.json.input as ScoreOrderInput['order'];
            const scored = await call('scoreOrder', activities.scoreOrder, { ...job, order });
            if (scored.outcome !== 'valid' || scored.proposal.decision === 'review') figures.needsReview++;
            else figures.completed++;
            continue;
          }
          const { file } = input;
          const bytes = Buffer.from(file.bytes);
          const sha256 = createHash('sha256').update(bytes).digest('hex');
          const contentType = file.fileName.endsWith('.pdf') ? ('application/pdf' as const) : ('text/plain' as const);
          const key = objectKeys.input('demo', sha256);
          await store.put(key, bytes, { contentType });
          const job = { jobId: `invoice:demo:naive-${runId}-${index}`, tenantId: 'demo', priority: kind.priority };
          const document = {
            bucket: store.bucket,
            key,
            sha256,
            contentType,
            sizeBytes: bytes.length,
            fileName: file.fileName,
          };
          const text = await call('extractText', activities.extractText, { ...job, document });
          const classified = await call('classifyDocument', activities.classifyDocument, {
            ...job,
            textKey: text.textKey,
          });
          if (classified.classification.documentType !== 'invoice') {
            figures.rejected++;
            continue;
          }
          const fields = await call('extractInvoiceFields', activities.extractInvoiceFields, {
            ...job,
            textKey: text.textKey,
          });
          if (fields.outcome !== 'valid' || !fields.invoice || fields.confidence < config.jobs.confidenceThreshold) {
            figures.needsReview++;
            continue;
          }
          await call('postInvoiceToLedger', activities.postInvoiceToLedger, { ...job, invoice: fields.invoice });
          figures.posted++;
        } catch {
          figures.userFacingErrors++;
          figures.errorsByStep[step] = (figures.errorsByStep[step] ?? 0) + 1;
        }
      }
    }),
  );
  await wired.close();
  figures.errorRate = figures.requests === 0 ? 0 : figures.userFacingErrors / figures.requests;
  return figures;
}
