// Preloaded into the stack's API and workers by `npm run bench -- throughput --cpu-prof <dir>` (NODE_OPTIONS refuses
// --cpu-prof itself): profiles the whole process and writes <dir>/<pid>.cpuprofile when it exits.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.SLOWLANE_CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  let written = false;
  // An in-process session answers synchronously, so the profile is written even from the exit handler. The stack
  // stops its processes with SIGTERM: what they do after it (draining) is not what the run measured.
  const write = () => {
    if (written) return;
    written = true;
    session.post('Profiler.stop', (error, result) => {
      const name = `${process.argv[1]?.split('/').slice(-2).join('-')}-${process.pid}.cpuprofile`;
      if (!error) writeFileSync(join(dir, name), JSON.stringify(result.profile));
    });
  };
  process.once('SIGTERM', write);
  process.once('exit', write);
}
