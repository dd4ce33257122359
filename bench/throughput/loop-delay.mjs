// Preloaded into the stack's API and workers by `npm run bench -- throughput --loop-delay`: once a second, appends
// the event loop's delay over that second (p50, p99, max in ms) to <dir>/<process>-<pid>.jsonl. A loop held by
// CPU work delays every request and every task the process has in hand, whatever the work is.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setInterval } from 'node:timers';

const dir = process.env.SLOWLANE_LOOP_DELAY_DIR;
if (dir) {
  // The histogram samples with a timer of this period and counts the period itself in every delay: taken off below.
  const resolutionMs = 10;
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  const file = join(dir, `${process.argv[1]?.split('/').slice(-2).join('-')}-${process.pid}.jsonl`);
  const ms = (ns) => Math.max(0, Math.round((ns / 1e6 - resolutionMs) * 100) / 100);
  setInterval(() => {
    const line = { at: Date.now(), p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
    histogram.reset();
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 1000).unref();
}
