import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../api/api-error';
import { createReviewJob } from '../../api/jobs/review-job';
import type { JobReader } from '../../api/jobs/job-reader';
import type { JobsDeps } from '../../api/jobs/jobs-deps';
import { closed, stringEnum } from '../../common/api-contract/schema-kit';
import type { JobTypeDefinition } from '../../common/job-types/job-type';
import { orderScoreJobType } from '../../common/job-types/order-score/definition';
import { jobTypeNamed } from '../../common/job-types/registry';
import type { SubmitReviewInput } from '../../common/messages';

/**
 * order.score as a type whose reviewer edits the decision: declared in its definition alone, with no page or API
 * code of its own, the API must judge an approval's fields by that declaration.
 */
const OrderDecision = closed({ decision: stringEnum(['approve', 'decline'] as const), reasons: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }) });
const editableOrderScore: JobTypeDefinition = {
  ...orderScoreJobType,
  reviewer: { ...orderScoreJobType.reviewer, editable: { component: 'OrderDecision', schema: OrderDecision } },
};
const types = (name: string): JobTypeDefinition | undefined => (name === editableOrderScore.name ? editableOrderScore : jobTypeNamed(name));

/** A job of `type` awaiting review, and the decisions that reached its workflow's Update. */
function awaitingReview(type: string, typeNamed: (name: string) => JobTypeDefinition | undefined) {
  const sent: unknown[] = [];
  const description = { status: { name: 'RUNNING' }, typedSearchAttributes: { get: () => undefined } };
  const reader = {
    getOwnedJob: async () => description,
    baseOf: () => ({ status: 'awaiting_review', type }),
    stateOf: async () => undefined,
    view: () => ({ jobId: `${type}:demo:k1`, type, status: 'processing', detailed: false, links: {} }),
  } as unknown as JobReader;
  const client = {
    withDeadline: <T>(_deadline: number, call: () => Promise<T>) => call(),
    workflow: { getHandle: () => ({ executeUpdate: async (_update: unknown, options: { args: unknown[] }) => void sent.push(options.args[0]) }) },
  } as unknown as JobsDeps['client'];
  const review = createReviewJob({ client }, reader, typeNamed);
  return { sent, decide: (decision: SubmitReviewInput) => review('demo', `${type}:demo:k1`, decision) };
}

const approve = (fields: unknown): SubmitReviewInput => ({ decision: 'approve', fields, reviewer: 'rita' }) as SubmitReviewInput;

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
  return error;
}

describe('a review decision is judged by the editable result the job type declares', () => {
  test('when a type other than the invoice declares editable fields and the reviewer sends valid ones, then the workflow gets them', async () => {
    const job = awaitingReview('order.score', types);
    const fields = { decision: 'decline', reasons: ['three chargebacks'] };
    await job.decide(approve(fields));
    assert.deepEqual(job.sent, [approve(fields)]);
  });

  test('when that type’s fields break its schema, then the API answers 422 naming them and the workflow gets nothing', async () => {
    const job = awaitingReview('order.score', types);
    const error = await refusal(job.decide(approve({ decision: 'maybe', reasons: [] })));
    assert.equal(error.status, 422);
    assert.equal(error.code, 'invalid_fields');
    const errors = (error.details?.errors ?? []) as string[];
    assert.ok(errors.some((line) => line.startsWith('/decision')), errors.join('; '));
    assert.ok(errors.some((line) => line.startsWith('/reasons')), errors.join('; '));
    assert.deepEqual(job.sent, []);
  });

  test('when the type declares nothing editable (order.score as registered), then fields are refused and a bare approval passes', async () => {
    const job = awaitingReview('order.score', jobTypeNamed);
    const error = await refusal(job.decide(approve({ decision: 'decline', reasons: ['x'] })));
    assert.equal(error.status, 422);
    await job.decide({ decision: 'approve', reviewer: 'rita' });
    assert.deepEqual(job.sent, [{ decision: 'approve', reviewer: 'rita' }]);
  });

  test('when an invoice approval lacks a required field, then its declared schema refuses it', async () => {
    const job = awaitingReview('invoice', jobTypeNamed);
    const invoice = { invoiceNumber: 'INV-1', issuer: 'Acme', issueDate: '2026-11-02', dueDate: null, currency: 'EUR', subtotalAmount: null, taxAmount: null, lineItems: [] };
    const error = await refusal(job.decide(approve(invoice)));
    assert.equal(error.status, 422);
    assert.ok(((error.details?.errors ?? []) as string[]).some((line) => line.includes('totalAmount')));
    await job.decide(approve({ ...invoice, totalAmount: 119 }));
    assert.equal(job.sent.length, 1);
  });
});
