import type { BatchLaneKillPoint } from '../../lib/config/batch-lane-settings';

/**
 * The kill tests' hook (BATCH_TEST_KILL_AT, which production refuses): the process dies when the lane reaches
 * `point`. SIGKILL, not process.exit: no exit handler, flush or `finally` runs, as after an OOM kill or a lost node.
 */
export function killAt(point: BatchLaneKillPoint): (reached: BatchLaneKillPoint) => void {
  return (reached) => {
    if (reached !== point) return;
    process.stderr.write(`BATCH_TEST_KILL_AT: killed at ${point}\n`);
    process.kill(process.pid, 'SIGKILL');
  };
}
