import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { submit, waitForJob } from '../support/api-client';
import { type ExtraApi, startExtraApi } from '../support/extra-api';
import { type IdentityProvider, startIdentityProvider } from '../support/identity-provider';
import { sampleWith } from '../support/samples';

const fields = {
  invoiceNumber: 'OIDC-7',
  issuer: 'Reviewed Supplier BV',
  issueDate: '2026-11-30',
  dueDate: null,
  currency: 'EUR',
  totalAmount: 77.7,
  subtotalAmount: null,
  taxAmount: null,
  lineItems: [],
};

describe('reviewers and operators signed in through OIDC, on an API of the test stack that trusts a test provider', () => {
  let idp: IdentityProvider;
  let api: ExtraApi;
  beforeAll(async () => {
    idp = await startIdentityProvider();
    api = await startExtraApi('api-oidc', idp.settings);
  });
  afterAll(async () => {
    await api?.stop();
    await idp?.close();
  });

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as { review?: { reviewer?: string }; error?: { code: string } } };
  };

  test('when a reviewer signs in with an identity token and approves, then the job records their subject, whatever the body says', async () => {
    const sample = await sampleWith('awaiting_review');
    const jobId = (await submit(sample.bytes, { fileName: sample.fileName })).body.jobId as string;
    assert.equal((await waitForJob(jobId, ['awaiting_review', 'posted', 'failed'])).status, 'awaiting_review');
    const path = `/jobs/${encodeURIComponent(jobId)}/review`;

    const expired = await idp.token('carol@demo.example', { expiresAt: Math.floor(Date.now() / 1000) - 3600 });
    assert.equal((await call('POST', path, expired, { decision: 'approve', fields })).status, 401);
    const otherTenant = await idp.token('kim@acme.example', { claims: { slowlane_tenant: 'acme' } });
    assert.equal((await call('POST', path, otherTenant, { decision: 'approve', fields })).status, 404, "another tenant's reviewer sees no such job");
    const carol = await idp.token('carol@demo.example');
    assert.equal((await call('POST', path, carol, { decision: 'approve', fields, reviewer: 'the-boss' })).status, 403);

    const approved = await call('POST', path, carol, { decision: 'approve', fields });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.review?.reviewer, 'carol@demo.example');
    const posted = await waitForJob(jobId, ['posted', 'failed']);
    assert.equal(posted.review?.reviewer, 'carol@demo.example', 'the main API shows the same decision, by the same person');
  });

  test('when an identity token carries the operator role, then /admin answers; a reviewer token is refused there', async () => {
    const operator = await idp.token('olga@ops.example', { claims: { slowlane_roles: ['operator'], slowlane_tenant: undefined } });
    assert.equal((await call('GET', '/admin/dead-letters?limit=1', operator)).status, 200);
    assert.equal((await call('GET', '/admin/dead-letters?limit=1', await idp.token('carol@demo.example'))).status, 401);
  });
});
