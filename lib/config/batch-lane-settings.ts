import { setting, type SettingsArea } from '../settings/setting';
import { bool, duration, int, oneOf } from '../settings/setting-types';

/**
 * Where a batch's work can be cut off by a dead worker: after the intent record and before the create, between the
 * create and its record, after the first result of the download is stored, after the first job is answered.
 */
export const BATCH_LANE_KILL_POINTS = ['before-create', 'between-create-and-record', 'during-results-download', 'during-answers'] as const;
export type BatchLaneKillPoint = (typeof BATCH_LANE_KILL_POINTS)[number];

/** The Message Batches lane for bulk model calls (docs/gateway.md#the-batch-lane). */
export const batchLaneArea = {
  title: 'Batch lane',
  settings: {
    enabled: setting({
      env: 'BATCH_LANE',
      type: bool(),
      default: 'true',
      doc: "`off`: every model call takes the live Messages API. On: the bulk jobs' calls (types that support it) go through the Message Batches API at half the price",
    }),
    collectWindowMs: setting({
      env: 'BATCH_COLLECT_WINDOW',
      type: duration(),
      default: '10s',
      doc: "how long a model's collector gathers requests after the first one before it submits them as one batch",
    }),
    maxRequests: setting({
      env: 'BATCH_MAX_REQUESTS',
      type: int({ min: 1, max: 100_000 }),
      default: '10000',
      doc: "a batch is submitted as soon as it holds this many requests (the provider's limit is 100,000)",
    }),
    pollIntervalMs: setting({
      env: 'BATCH_POLL_INTERVAL',
      type: duration(),
      default: '30s',
      doc: 'how often a submitted batch is asked whether it has ended (a durable timer of the collector)',
    }),
    giveUpAfterMs: setting({
      env: 'BATCH_GIVE_UP_AFTER',
      type: duration(),
      default: '6h',
      doc: "a submitted batch whose status or results cannot be read for this long is given up: it is cancelled, its jobs take the live path and the `SlowlaneBatchGivenUp` alert fires",
    }),
    deadlineMarginMs: setting({
      env: 'BATCH_DEADLINE_MARGIN',
      type: duration(),
      default: '2m',
      doc: "a job with a `deadline` takes the live path at once when less than this is left before it, and leaves the batch lane for the live path when waiting longer would leave less",
    }),
    maxWaitMs: setting({
      env: 'BATCH_MAX_WAIT',
      type: duration(),
      default: '25h',
      doc: "how long a job without a deadline waits for its batch answer before it takes the live path (the provider expires unfinished entries after 24 h)",
    }),
    coalesceEnqueues: setting({
      env: 'BATCH_COALESCE_ENQUEUES',
      type: bool(),
      default: 'true',
      doc: "on: each worker process carries the entries it enqueues while a signal to the collector is in flight in its next signal (up to 500 in one), so a backfill's thousands of entries reach the collector in dozens of signals. `false`: one signal per entry, as builds before the `batchEntries` signal sent; set it while rolling out from such a build, whose running collector would drop the batched signal (docs/deployment.md#the-batch-collector-follows-new-builds)",
    }),
    killAt: setting({
      env: 'BATCH_TEST_KILL_AT',
      type: oneOf(BATCH_LANE_KILL_POINTS),
      testOnly: true,
      doc: "the kill tests' hook: the worker process SIGKILLs itself when a batch reaches this point (test/integration/batch-lane-kills.test.ts)",
    }),
  },
} satisfies SettingsArea;
