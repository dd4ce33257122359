/**
 * Every `patched()` id the workflows use, each defined here once: the code names a patch as `PATCHES.<name>.id`.
 * With each, when it shipped (the commit on main that introduced it, so the first build that carries it) and what
 * it guards: histories without its marker take the old branch. A patch may go once no execution that could take
 * the old branch is running or resettable, which `npm run ops -- patches` asks Temporal's visibility
 * (docs/operations.md#changing-a-workflow-safely); its entry goes with it.
 * test/unit/patch-register.test.ts checks that the code's patch ids and these are the same, each used.
 */
export interface PatchRecord {
  /** The id `patched()` records in a history's marker: never changed once shipped. */
  id: string;
  shipped: { commit: string; date: string };
  /**
   * The workflow types whose code reaches the check (workflows/index.ts's exports whose imports lead to it): only
   * their executions can take the old branch. test/unit/patch-register.test.ts derives the list from the imports.
   */
  workflowTypes: readonly string[];
  /** The new branch; histories recorded before it replay the old one. */
  guards: string;
  /**
   * Retirement's first deploy: the old branch is gone and the code calls `deprecatePatch()`, which still writes the
   * marker, so a worker of the build before (which checks `patched()`) replays the new histories. With `evidence`,
   * what `npm run ops -- patches` showed when it was done. The call and this entry go once no run started before
   * this deploy is left: their histories hold the marker as `patched()` wrote it, which only a call consumes.
   */
  deprecated?: { commit: string; date: string; evidence: string };
}

export const PATCHES = {
  budgetRefusalsReschedule: {
    id: 'budget-refusals-reschedule',
    shipped: { commit: 'e759701', date: '2026-12-02' },
    workflowTypes: ['invoiceWorkflow', 'orderScoreWorkflow', 'documentWorkflow', 'ticketsDigestWorkflow', 'callTranscribeWorkflow'],
    guards:
      'a step whose attempts the token budget refused (or whose budget store was down) is scheduled again, for up to 6 h, instead of parking as a dead letter (workflows/job-run.ts)',
    deprecated: { commit: '345c724', date: '2026-12-07', evidence: 'npm run ops -- patches on the local stack (npm start, 2026-12-07 00:15 UTC): 0 runs could take the old branch' },
  },
  reviewSignalCheckedByLocalActivity: {
    id: 'review-signal-checked-by-local-activity',
    shipped: { commit: '53b80a7', date: '2026-12-03' },
    workflowTypes: ['invoiceWorkflow', 'orderScoreWorkflow', 'documentWorkflow', 'ticketsDigestWorkflow', 'callTranscribeWorkflow'],
    guards:
      "the reviewed signal's fields are checked by the local activity validateReviewFields, whose answer history records; older runs checked inline against a frozen copy of the schema, removed with the old branch (workflows/review.ts)",
    deprecated: { commit: '345c724', date: '2026-12-07', evidence: 'npm run ops -- patches on the local stack (npm start, 2026-12-07 00:15 UTC): 0 runs could take the old branch' },
  },
  batchLane: {
    id: 'batch-lane',
    shipped: { commit: 'e952cd0', date: '2026-12-03' },
    workflowTypes: ['invoiceWorkflow', 'orderScoreWorkflow', 'documentWorkflow', 'documentChunkGroupWorkflow', 'ticketsDigestWorkflow'],
    guards: "a bulk order.score's model call may take its answer from a Message Batch (workflows/batch-lane/batch-lane-wait.ts)",
  },
  cancelEndsAnyPark: {
    id: 'cancel-ends-any-park',
    shipped: { commit: 'bfc6d64', date: '2026-12-03' },
    workflowTypes: ['invoiceWorkflow', 'orderScoreWorkflow', 'documentWorkflow', 'ticketsDigestWorkflow', 'callTranscribeWorkflow'],
    guards:
      'a cancel ends a job parked as a dead letter inside beyondCancel (an invoice whose ledger post failed for good) instead of being ignored (workflows/dead-letters.ts)',
    deprecated: { commit: '345c724', date: '2026-12-07', evidence: 'npm run ops -- patches on the local stack (npm start, 2026-12-07 00:15 UTC): 0 runs could take the old branch' },
  },
  batchLaneSteps: {
    id: 'batch-lane-steps',
    shipped: { commit: '3d2d960', date: '2026-12-04' },
    workflowTypes: ['invoiceWorkflow', 'orderScoreWorkflow', 'documentWorkflow', 'documentChunkGroupWorkflow', 'ticketsDigestWorkflow'],
    guards:
      "every other type's bulk steps (classify, extract, chunk summaries, digest batches and narrative) may take their first answer from a Message Batch (workflows/batch-lane/batch-lane-wait.ts)",
  },
  spendCapsEverywhere: {
    id: 'spend-caps-everywhere',
    shipped: { commit: '5e89451', date: '2026-12-04' },
    workflowTypes: ['documentWorkflow', 'documentChunkGroupWorkflow'],
    guards:
      'a chunk group stops on a spend-cap refusal and hands back its waiting chunks, and the document job waits in budget_wait to run them (workflows/document/)',
  },
  tenantsTakeTurnsAtFirstModelCall: {
    id: 'tenants-take-turns-at-first-model-call',
    shipped: { commit: 'e09e8d6', date: '2026-12-04' },
    workflowTypes: ['invoiceWorkflow'],
    guards:
      "an invoice's text extraction and its classifyDocument run with the entry and first-model-call options, where tenants take turns (workflows/invoice/invoice-workflow.ts)",
  },
  searchAttributesOnStatusChange: {
    id: 'search-attributes-on-status-change',
    shipped: { commit: '04c231f', date: '2026-12-04' },
    workflowTypes: ['invoiceWorkflow', 'orderScoreWorkflow', 'documentWorkflow', 'documentChunkGroupWorkflow', 'ticketsDigestWorkflow', 'callTranscribeWorkflow'],
    guards: "a job's search attributes are written when its status changes, not at every step (workflows/job-tracker.ts)",
  },
  collectorCarriesLateEntries: {
    id: 'collector-carries-late-entries',
    shipped: { commit: '86f1a78', date: '2026-12-06' },
    workflowTypes: ['batchCollectorWorkflow'],
    guards:
      "a closing batch takes only what waited when it closed, and a collector run at its event limit (its waits wake there) continues as new carrying up to a segment of late entries, instead of writing until nothing is pending (workflows/batch-lane/batch-collector-workflow.ts)",
  },
  inputErrorsFailJob: {
    id: 'input-errors-fail-job',
    shipped: { commit: 'ffaca8e', date: '2026-12-06' },
    workflowTypes: ['invoiceWorkflow', 'orderScoreWorkflow', 'documentWorkflow', 'ticketsDigestWorkflow', 'callTranscribeWorkflow'],
    guards:
      'a step that fails with an input error (InvalidDocumentError, DocumentTooLargeError) fails the job for its client with the reason instead of parking it as a dead letter (workflows/job-run.ts)',
  },
  embeddingsInRequests: {
    id: 'embeddings-in-requests',
    shipped: { commit: '19e9fe6', date: '2026-12-06' },
    workflowTypes: ['documentWorkflow', 'documentChunkGroupWorkflow'],
    guards:
      "a chunk group's chunks are stored without their vectors and embedded together by embedDocumentChunks, in requests of many inputs, instead of one embeddings request per chunk (workflows/document/chunk-group-workflow.ts)",
  },
  orderScoreOnBatchLaneWait: {
    id: 'order-score-on-batch-lane-wait',
    shipped: { commit: '5ba2bc4', date: '2026-12-06' },
    workflowTypes: ['orderScoreWorkflow'],
    guards:
      "a bulk order.score takes the batch lane through BatchLaneWait and enqueueBatchEntry's scoreOrder step, like every other type, instead of its own enqueueScoreOrderBatch and scoreOrderFromBatch (workflows/order-score/order-score-workflow.ts)",
  },
  webPush: {
    id: 'web-push',
    shipped: { commit: '82114b0', date: '2026-12-06' },
    workflowTypes: ['invoiceWorkflow', 'orderScoreWorkflow', 'documentWorkflow', 'ticketsDigestWorkflow', 'callTranscribeWorkflow'],
    guards:
      "a job started with `push` (PUSH_ENABLED) starts a deliverPushWorkflow child at each status its Web Push subscriptions hear of: awaiting_review and every end (workflows/notifications.ts)",
  },
  providerFilesDeletedAtJobEnd: {
    id: 'provider-files-deleted-at-job-end',
    shipped: { commit: 'b3c9a93', date: '2026-12-06' },
    workflowTypes: ['invoiceWorkflow', 'orderScoreWorkflow', 'documentWorkflow', 'ticketsDigestWorkflow', 'callTranscribeWorkflow'],
    guards:
      "a job whose model steps read scans runs deleteJobProviderFiles when it ends (posted, rejected, failed, cancelled…), deleting the scans its steps uploaded to the provider's Files API (workflows/job-run.ts)",
  },
  sweepDeletesProviderFiles: {
    id: 'sweep-deletes-provider-files',
    shipped: { commit: 'b3c9a93', date: '2026-12-06' },
    workflowTypes: ['retentionSweepWorkflow'],
    guards:
      "the retention sweep, once it has erased the expired jobs, deletes the scans that ended jobs left on the provider's Files API (workflows/retention/retention-sweep-workflow.ts)",
  },
  callLowConfidenceReview: {
    id: 'call-low-confidence-review',
    shipped: { commit: '6df3d2e', date: '2026-12-07' },
    workflowTypes: ['callTranscribeWorkflow'],
    guards:
      "a call whose transcription confidence is below CALL_REVIEW_CONFIDENCE goes to review with the model's summary as the proposal, even when the summary is valid, instead of completing (workflows/call/call-workflow.ts)",
  },
  chunksInOneStep: {
    id: 'chunks-in-one-step',
    shipped: { commit: '2f350a0', date: '2026-12-07' },
    workflowTypes: ['documentWorkflow', 'documentChunkGroupWorkflow'],
    guards:
      "a chunk group whose chunks do not take the batch lane summarises them in one processDocumentChunks step, instead of one processDocumentChunk step per chunk (workflows/document/chunk-group-workflow.ts)",
  },
} as const satisfies Record<string, PatchRecord>;
