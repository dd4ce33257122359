import { setting, type SettingsArea } from '../settings/setting';
import { duration, int, listOf } from '../settings/setting-types';

export const workerArea = {
  title: 'Workers',
  settings: {
    priorities: setting({
      env: 'WORKER_PRIORITIES',
      type: listOf(['interactive', 'bulk']),
      default: 'interactive,bulk',
      doc: 'task queues a worker process polls (the local stack runs one process per queue)',
    }),
    maxConcurrentActivities: setting({
      env: 'WORKER_MAX_CONCURRENT_ACTIVITIES',
      type: int({ min: 1, max: 10_000 }),
      defaultDoc: 'derived from the token budget; 20 when the budget is off',
      doc: 'fixed activity slots per worker process',
    }),
    shutdownGraceMs: setting({
      env: 'WORKER_SHUTDOWN_GRACE',
      type: duration(),
      default: '10s',
      doc: 'how long in-flight activities may finish on SIGTERM',
    }),
  },
} satisfies SettingsArea;
